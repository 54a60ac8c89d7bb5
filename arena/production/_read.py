"""Production traces from the files a team already has, told apart by their content.

- ``.jsonl``: :class:`~arena.production.ProductionTrace` records, one a line; or a LangSmith
  runs export, one run a line (its first line has ``inputs`` and no ``answer``);
- ``.json``: a LangSmith runs export, a JSON list of runs (bounded like every input file);
- ``.csv``: the CSV ``arena langsmith import`` reads;
- OpenTelemetry traces, OTLP JSON as the Collector's file exporter writes it: one
  ``{"resourceSpans": ...}`` object a line (any suffix, or a pipe), one such object in a
  ``.json`` file, or a folder of such files (:mod:`arena.production._otlp`).

JSONL is streamed (bounded memory, any size). A source is opened and read once, its format
told from the bytes read first (kept in a buffer), so a pipe works like a file (a pipe has no
suffix: a ``[`` first is a JSON list, a first line with a comma and no ``{`` is CSV). Every
failure is an :class:`~arena.errors.InputError` naming the file, the line and the field.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, cast

from arena.errors import InputError
from arena.inputs.files import MAX_INPUT_BYTES, parse_json
from arena.production._langsmith_runs import example_to_trace, runs_to_traces
from arena.production._lines import (
    BOM,
    MAX_LINE_BYTES,
    Rewound,
    first_byte,
    handle_objects,
    open_source,
    validated,
)
from arena.production._otlp import SpanPool, folder_files
from arena.production._trace import ProductionTrace

TRACE_FORMATS = ("traces", "langsmith-runs", "langsmith-csv", "otlp")


def _is_run(row: dict[str, Any]) -> bool:
    return "inputs" in row and "answer" not in row


def _kind(row: dict[str, Any]) -> str:
    """The format of a JSON Lines source, by its first object."""
    if "resourceSpans" in row:
        return "otlp"
    return "langsmith-runs" if _is_run(row) else "traces"


def _first_line(stream: Rewound) -> tuple[bytes, Rewound]:
    """The first line that is not blank (bounded), and the stream with nothing consumed."""
    taken = line = b""
    while len(taken) <= MAX_LINE_BYTES:
        line = stream.readline(MAX_LINE_BYTES + 1 - len(taken))
        taken += line
        if not line or line.strip():
            break
    return line, Rewound(taken, cast(BinaryIO, stream))


def _one_object(line: bytes) -> bool:
    """True when ``line`` is a whole JSON object (JSON Lines), not the start of one."""
    try:
        return isinstance(parse_json(line.removeprefix(BOM).decode("utf-8")), dict)
    except (InputError, UnicodeDecodeError):
        return False


def _layout(suffix: str, first: bytes, head: bytes) -> str:
    """``jsonl``, ``json`` (a list) or ``csv``: by the suffix, else (a pipe has none) by the
    first byte that is not blank, and a first line with a comma for CSV."""
    if suffix in (".csv", ".json", ".jsonl"):
        return suffix[1:]
    if first == b"[":
        return "json"
    line = head.removeprefix(BOM).lstrip().split(b"\n", 1)[0]
    return "csv" if first not in (b"{", b"") and b"," in line else "jsonl"


def _sniffed(
    handle: BinaryIO, suffix: str, file: str
) -> tuple[str, Rewound, Iterator[tuple[int, dict[str, Any]]] | None]:
    """The format of an opened source (:data:`TRACE_FORMATS`), the source with nothing
    consumed and, for JSONL, its objects: the start is read once, into a buffer, never again
    from the file."""
    first, stream = first_byte(handle)
    layout = _layout(suffix, first, stream.head)
    if layout == "csv":
        return "langsmith-csv", stream, None
    if layout == "json" and first != b"{":
        return "langsmith-runs", stream, None
    if layout == "json":  # objects: one a line (the OTLP file exporter's), or one whole
        line, stream = _first_line(stream)
        if not _one_object(line):
            return "otlp", stream, None
    objects = handle_objects(stream, file)
    opening = next(objects, None)
    if opening is None:
        raise InputError("no traces in the file", file=file)
    return _kind(opening[1]), stream, itertools.chain([opening], objects)


def trace_format(path: str | Path) -> str:
    """Which of :data:`TRACE_FORMATS` the file holds (by suffix, then its first line; a
    folder holds OTLP files)."""
    if Path(path).is_dir():
        return "otlp"
    with open_source(path) as handle:
        return _sniffed(handle, Path(path).suffix.lower(), str(path))[0]


def iter_traces(path: str | Path) -> Iterator[tuple[str, ProductionTrace]]:
    """(place, trace) of every trace in the file (place: ``line 3``, ``#2``), lazily; the
    file is opened and read once, so a pipe (``--traces <(cat t.jsonl)``) is read whole."""
    file = str(path)
    if Path(path).is_dir():
        yield from _folder(Path(path))
        return
    suffix = Path(path).suffix.lower()
    with open_source(path) as handle:
        kind, stream, objects = _sniffed(handle, suffix, file)
        if kind == "otlp":
            pool = SpanPool()
            _add_otlp(pool, stream, objects, file)
            yield from pool.traces_in_order()
            return
        if objects is None:
            yield from _whole(kind, stream, file)
            return
        lines = ((f"line {n}", row) for n, row in objects)
        if kind == "langsmith-runs":
            yield from runs_to_traces(lines, file=file)
            return
        for where, row in lines:
            yield where, validated(ProductionTrace, row, file=file, where=where)


def _add_otlp(
    pool: SpanPool,
    stream: Rewound,
    objects: Iterator[tuple[int, dict[str, Any]]] | None,
    file: str,
) -> None:
    """The spans of an OTLP source into ``pool``: its lines, or its one whole document."""
    if objects is not None:
        pool.add_lines(objects, file=file)
        return
    text = _text(stream.read(MAX_INPUT_BYTES + 1), file)
    pool.add_document(parse_json(text.removeprefix("\ufeff"), file=file), file=file)


def _folder(folder: Path) -> Iterator[tuple[str, ProductionTrace]]:
    """The traces of a folder of OTLP files (the exporter's rotated files): the spans of
    every file are pooled, since one trace's spans may be in two files."""
    pool = SpanPool()
    for path in folder_files(folder):
        file = str(path)
        with open_source(path) as handle:
            kind, stream, objects = _sniffed(handle, path.suffix.lower(), file)
            if kind != "otlp":
                raise InputError(
                    "expected OTLP JSON (objects with resourceSpans), as every file of a "
                    f"traces folder; this one holds {kind}",
                    file=file,
                )
            _add_otlp(pool, stream, objects, file)
    yield from pool.traces_in_order()


def _whole(kind: str, stream: Rewound, file: str) -> Iterator[tuple[str, ProductionTrace]]:
    """The traces of a CSV file or a JSON list of runs, read whole (bounded)."""
    text = _text(stream.read(MAX_INPUT_BYTES + 1), file)
    if kind == "langsmith-csv":
        from arena.langsmith._files import examples_from_text

        for example in examples_from_text(text, file, ".csv"):
            where = str(example.get("_where"))
            yield where, example_to_trace(example, file=file, where=where)
        return
    doc = parse_json(text.removeprefix("\ufeff"), file=file)  # a BOM is skipped
    if not isinstance(doc, list):
        raise InputError("expected a JSON list of runs (a LangSmith runs export)", file=file)
    runs = (_run(item, file, f"run #{i}") for i, item in enumerate(doc))
    yield from runs_to_traces(runs, file=file)


def _text(data: bytes, file: str) -> str:
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"file too large (limit {MAX_INPUT_BYTES} bytes)", file=file)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text (invalid byte at offset {exc.start})", file=file
        ) from None


def _run(item: Any, file: str, where: str) -> tuple[str, dict[str, Any]]:
    if not isinstance(item, dict):
        raise InputError("expected a JSON object (a run)", file=file, at=where)
    return where, item


def read_traces(path: str | Path) -> list[ProductionTrace]:
    """Every trace of the file, in order (for small files; sampling streams instead)."""
    traces = [trace for _, trace in iter_traces(path)]
    if not traces:
        raise InputError("no traces in the file", file=str(path))
    return traces

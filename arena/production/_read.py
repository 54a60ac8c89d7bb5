"""Production traces from the files a team already has, told apart by their content.

- ``.jsonl``: :class:`~arena.production.ProductionTrace` records, one a line; or a LangSmith
  runs export, one run a line (its first line has ``inputs`` and no ``answer``);
- ``.json``: a LangSmith runs export, a JSON list of runs (bounded like every input file);
- ``.csv``: the CSV ``arena langsmith import`` reads.

JSONL is streamed (bounded memory, any size). A source is opened and read once, its format
told from the bytes read first (kept in a buffer), so a pipe works like a file (a pipe has no
suffix: a ``[`` first is a JSON list, a first line with a comma and no ``{`` is CSV). Every
failure is an :class:`~arena.errors.InputError` naming the file, the line and the field.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from arena.errors import InputError
from arena.inputs.files import MAX_INPUT_BYTES, parse_json
from arena.production._langsmith_runs import example_to_trace, runs_to_traces
from arena.production._lines import BOM, Rewound, first_byte, handle_objects, open_source, validated
from arena.production._trace import ProductionTrace

TRACE_FORMATS = ("traces", "langsmith-runs", "langsmith-csv")


def _is_run(row: dict[str, Any]) -> bool:
    return "inputs" in row and "answer" not in row


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
    if layout == "json":
        return "langsmith-runs", stream, None
    objects = handle_objects(stream, file)
    opening = next(objects, None)
    if opening is None:
        raise InputError("no traces in the file", file=file)
    kind = "langsmith-runs" if _is_run(opening[1]) else "traces"
    return kind, stream, itertools.chain([opening], objects)


def trace_format(path: str | Path) -> str:
    """Which of :data:`TRACE_FORMATS` the file holds (by suffix, then its first line)."""
    with open_source(path) as handle:
        return _sniffed(handle, Path(path).suffix.lower(), str(path))[0]


def iter_traces(path: str | Path) -> Iterator[tuple[str, ProductionTrace]]:
    """(place, trace) of every trace in the file (place: ``line 3``, ``#2``), lazily; the
    file is opened and read once, so a pipe (``--traces <(cat t.jsonl)``) is read whole."""
    file = str(path)
    suffix = Path(path).suffix.lower()
    with open_source(path) as handle:
        kind, stream, objects = _sniffed(handle, suffix, file)
        if objects is None:
            yield from _whole(kind, stream, file)
            return
        lines = ((f"line {n}", row) for n, row in objects)
        if kind == "langsmith-runs":
            yield from runs_to_traces(lines, file=file)
            return
        for where, row in lines:
            yield where, validated(ProductionTrace, row, file=file, where=where)


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

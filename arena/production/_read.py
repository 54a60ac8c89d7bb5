"""Production traces from the files a team already has, told apart by their content.

- ``.jsonl``: :class:`~arena.production.ProductionTrace` records, one a line; or a LangSmith
  runs export, one run a line (its first line has ``inputs`` and no ``answer``);
- ``.json``: a LangSmith runs export, a JSON list of runs (bounded like every input file);
- ``.csv``: the CSV ``arena langsmith import`` reads.

JSONL is streamed (bounded memory, any size). Every failure is an
:class:`~arena.errors.InputError` naming the file, the line and the field.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.errors import InputError
from arena.inputs.files import parse_json, read_text
from arena.production._langsmith_runs import example_to_trace, runs_to_traces
from arena.production._lines import stream_objects, validated
from arena.production._trace import ProductionTrace

TRACE_FORMATS = ("traces", "langsmith-runs", "langsmith-csv")


def _is_run(row: dict[str, Any]) -> bool:
    return "inputs" in row and "answer" not in row


def trace_format(path: str | Path) -> str:
    """Which of :data:`TRACE_FORMATS` the file holds (by suffix, then its first line)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return "langsmith-csv"
    if suffix == ".json":
        return "langsmith-runs"
    first = next(stream_objects(path), None)
    if first is None:
        raise InputError("no traces in the file", file=str(path))
    return "langsmith-runs" if _is_run(first[1]) else "traces"


def iter_traces(path: str | Path) -> Iterator[tuple[str, ProductionTrace]]:
    """(place, trace) of every trace in the file (place: ``line 3``, ``#2``), lazily."""
    file = str(path)
    kind = trace_format(path)
    if kind == "langsmith-csv":
        from arena.langsmith import read_examples

        for example in read_examples(path):
            where = str(example.get("_where"))
            yield where, example_to_trace(example, file=file, where=where)
        return
    if kind == "langsmith-runs" and Path(path).suffix.lower() == ".json":
        doc = parse_json(read_text(path).removeprefix("\ufeff"), file=file)  # a BOM is skipped
        if not isinstance(doc, list):
            raise InputError("expected a JSON list of runs (a LangSmith runs export)", file=file)
        runs = (_run(item, file, f"run #{i}") for i, item in enumerate(doc))
        yield from runs_to_traces(runs, file=file)
        return
    lines = ((f"line {n}", row) for n, row in stream_objects(path))
    if kind == "langsmith-runs":
        yield from runs_to_traces(lines, file=file)
        return
    for where, row in lines:
        yield where, validated(ProductionTrace, row, file=file, where=where)


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

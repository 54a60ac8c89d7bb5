"""LangSmith example files: write JSONL, read JSONL, a JSON list or CSV.

JSONL has one example per line: ``{"inputs": {...}, "outputs": {...}, "metadata": {...}}``
(``reference_outputs`` is read as ``outputs``; ``id`` is kept when present). CSV is read in
two shapes: JSON-object columns ``inputs``, ``outputs``, ``metadata``; or one column per
field, prefixed ``inputs.``/``input_``, ``outputs.``/``output_``, ``metadata.`` (plain
``query``/``question``/``input`` columns count as inputs, ``answer``/``reference_answer`` as
outputs). A UTF-8 byte order mark at the start (Excel writes one) is skipped. Errors are
worded like every reader's: ``file F, line N, field X: ...`` (a CSV row: the line it starts on).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from arena.errors import InputError
from arena.inputs.files import parse_json, read_log_text
from arena.langsmith._examples import ANSWER_KEYS, QUERY_KEYS

WHERE = "_where"
"""Key :func:`read_examples` adds to each example: where it was read (``line 3``)."""
_SECTIONS = {
    "inputs.": "inputs",
    "input_": "inputs",
    "outputs.": "outputs",
    "output_": "outputs",
    "reference_outputs.": "outputs",
    "metadata.": "metadata",
}


def write_jsonl(examples: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write examples one per line (creating the folder); returns how many."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(example, ensure_ascii=False, sort_keys=True) for example in examples]
    target.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(lines)


def read_examples(path: str | Path) -> list[dict[str, Any]]:
    """Examples from a ``.jsonl``, ``.json`` (a list) or ``.csv`` file (see module doc).

    Each example also holds :data:`WHERE`, its place in the file, for error messages.
    """
    file = Path(path)
    # missing, a folder, not UTF-8; a byte order mark (Excel writes one) is skipped
    text = read_log_text(file, kind="example file")
    return examples_from_text(text, str(file), file.suffix.lower())


def examples_from_text(text: str, file: str, suffix: str) -> list[dict[str, Any]]:
    """:func:`read_examples` of text already read (a pipe is read once): ``suffix`` (``.csv``,
    ``.json``, else JSONL) says its format; ``file`` names it in errors."""
    text = text.removeprefix("\ufeff")
    if suffix == ".csv":
        return _csv(text, file)
    if suffix == ".json":
        data = _json(text, file, "the file")
        if not isinstance(data, list):
            raise InputError("expected a JSON list of examples", file=file)
        return [{**_object(item, file, f"#{i}"), WHERE: f"#{i}"} for i, item in enumerate(data)]
    return [
        {**_object(_json(line, file, f"line {n}"), file, f"line {n}"), WHERE: f"line {n}"}
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]


def _json(text: str, file: str, where: str, field: str | None = None) -> Any:
    try:
        return parse_json(text, file=file, at=where)  # strict: depth, duplicate keys, NaN
    except InputError as exc:
        if field is None:
            raise
        inner = field if exc.field is None else f"{field}.{exc.field}"  # a key in the cell
        raise InputError(exc.message, file=file, at=where, field=inner) from None


def _object(value: Any, file: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError("an example must be a JSON object", file=file, at=where)
    return value


def _csv(text: str, file: str) -> list[dict[str, Any]]:
    """Every row as an example, its place the line the row starts on (a quoted cell may hold
    line breaks); the header is line 1, blank lines are skipped."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    examples: list[dict[str, Any]] = []
    while True:
        where = f"line {reader.line_num + 1}"
        try:
            row = next(reader)
        except StopIteration:
            return examples
        except csv.Error as exc:  # e.g. a cell over the csv module's field size limit
            raise InputError(f"malformed CSV: {exc}", file=file, at=where) from None
        if not row:
            continue
        if header is None:
            header = [column.strip() for column in row]
            continue
        if len(row) != len(header):
            message = f"{len(row)} cells, the header has {len(header)} columns"
            raise InputError(message, file=file, at=where)
        example: dict[str, Any] = {"inputs": {}, "outputs": {}, "metadata": {}, WHERE: where}
        for column, value in zip(header, row, strict=True):
            _cell(example, column, value, file, where)
        examples.append(example)


def _cell(example: dict[str, Any], column: str, value: str, file: str, where: str) -> None:
    if column in ("inputs", "outputs", "reference_outputs", "metadata"):
        parsed = _json(value, file, where, column) if value.strip() else {}
        if not isinstance(parsed, dict):
            raise InputError("must hold a JSON object", file=file, at=where, field=column)
        example["outputs" if column == "reference_outputs" else column].update(parsed)
        return
    if column == "id":
        if value.strip():
            example["id"] = value.strip()
        return
    for prefix, section in _SECTIONS.items():
        if column.startswith(prefix):
            name = column[len(prefix) :]
            numeric = section == "outputs" and name in _NUMBERS
            example[section][name] = _number(value) if numeric else _maybe_json(value)
            return
    if column in QUERY_KEYS:
        example["inputs"][column] = value
    elif column in ANSWER_KEYS:
        example["outputs"][column] = value
    else:
        example["metadata"][column] = _maybe_json(value)


# A golden case's number fields: a CSV cell is text, so a column of one holds its number as
# text (the case itself refuses "2" for an integer).
_NUMBERS = ("max_steps", "min_tool_calls", "max_supersteps", "timeout_s")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _number(value: str) -> Any:
    """A number cell's number (``"2"`` -> 2, ``"2.5"`` -> 2.5); any other text as written."""
    text = value.strip()
    if not _NUMBER.fullmatch(text):
        return _maybe_json(value)
    return float(text) if "." in text else int(text)


def _maybe_json(value: str) -> Any:
    text = value.strip()
    if text[:1] in ("[", "{") or text in ("true", "false", "null"):
        try:
            return parse_json(text)
        except InputError:  # not JSON after all (or hostile JSON): the text as written
            return value
    return value

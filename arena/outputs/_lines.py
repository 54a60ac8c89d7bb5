"""JSON Lines and JSON files, read through the safe reading layer, one object a line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.errors import InputError
from arena.inputs.files import load_json, parse_json, read_text


def json_lines(path: str | Path, text: str | None = None) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) of every non-blank line; InputError naming file and line.
    ``text``: the file's text already read (a pipe is read once)."""
    file = str(path)
    rows = []
    text = read_text(path) if text is None else text
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        if not line.strip():
            continue
        value = parse_json(line, file=file, case=f"line {number}")
        if not isinstance(value, dict):
            raise InputError(f"line {number}: expected a JSON object", file=file)
        rows.append((number, value))
    if not rows:
        raise InputError("no answers in the file", file=file)
    return rows


def json_document(path: str | Path, text: str | None = None) -> Any:
    """A whole JSON file (alpaca_eval's model_outputs.json); ``text``: already read."""
    if text is None:
        return load_json(path)
    return parse_json(text.removeprefix("\ufeff"), file=str(path))


def text_field(
    row: dict[str, Any], name: str, *, file: str, line: int | str, required: bool = True
) -> str | None:
    """A string field of one row (ids may be numbers); InputError naming file, line, field.

    ``line`` is a line number, or a place such as ``item 3`` of a JSON list."""
    where = f"line {line}" if isinstance(line, int) else line
    value = row.get(name)
    if value is None:
        if required:
            raise InputError(f"{where}: missing", file=file, field=name)
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InputError(
            f"{where}: expected a string, got {type(value).__name__}", file=file, field=name
        )
    return str(value)

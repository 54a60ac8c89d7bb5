"""JSON Lines streamed one line at a time: bounded memory whatever the file's size.

A line is read with a length limit (:data:`MAX_LINE_BYTES`), decoded as UTF-8 (a byte order
mark at the start of the file, as some editors and Excel write, is skipped) and parsed by the
safe reading layer (:func:`arena.inputs.files.parse_json`: depth, duplicate keys, ``NaN``);
every failure is an :class:`~arena.errors.InputError` worded ``file F, line N, field X: ...``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from arena.errors import InputError
from arena.inputs.files import parse_json
from arena.inputs.validation import input_error

M = TypeVar("M", bound=BaseModel)

#: The longest line read (a trace with a long conversation fits; a runaway line does not).
MAX_LINE_BYTES = 4_000_000
#: The UTF-8 byte order mark.
BOM = b"\xef\xbb\xbf"


def _open(path: str | Path) -> Any:
    file = Path(path)
    try:
        if file.is_dir():
            raise InputError("is a folder, not a file", file=str(path))
        return open(file, "rb")
    except FileNotFoundError:
        raise InputError("no such file", file=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from None


def stream_objects(
    path: str | Path, *, limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of every non-blank line of a JSONL file, read lazily."""
    file = str(path)
    with _open(path) as handle:
        number = 0
        while raw := handle.readline(limit + 1):
            number += 1
            at = f"line {number}"
            if number == 1:
                raw = raw.removeprefix(BOM)
            if len(raw) > limit and not raw.endswith(b"\n"):
                raise InputError(f"longer than {limit} bytes", file=file, at=at)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"not UTF-8 text (invalid byte at offset {exc.start})", file=file, at=at
                ) from None
            if not text.strip():
                continue
            value = parse_json(text, file=file, at=at)
            if not isinstance(value, dict):
                raise InputError("expected a JSON object", file=file, at=at)
            yield number, value


def validated(model: type[M], data: dict[str, Any], *, file: str, where: str) -> M:
    """``data`` as ``model``; InputError naming the file, the place and the first bad field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise input_error(exc, file=file, at=where) from None

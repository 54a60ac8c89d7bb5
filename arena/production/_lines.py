"""JSON Lines streamed one line at a time: bounded memory whatever the file's size.

A line is read with a length limit (:data:`MAX_LINE_BYTES`), decoded as UTF-8 (a byte order
mark at the start of the file, as some editors and Excel write, is skipped) and parsed by the
safe reading layer (:func:`arena.inputs.files.parse_json`: depth, duplicate keys, ``NaN``);
every failure is an :class:`~arena.errors.InputError` worded ``file F, line N, field X: ...``.

A source is opened once and read once (:func:`open_source`): a pipe (``--traces <(cat
t.jsonl)``, ``/dev/fd/N``) cannot be read twice, so a reader that must look at the start to
tell the format keeps what it read (:class:`Rewound`) and goes on from there.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from pydantic import BaseModel, ValidationError

from arena.errors import InputError
from arena.inputs.files import parse_json
from arena.inputs.validation import input_error

M = TypeVar("M", bound=BaseModel)

#: The longest line read (a trace with a long conversation fits; a runaway line does not).
MAX_LINE_BYTES = 4_000_000
#: The UTF-8 byte order mark.
BOM = b"\xef\xbb\xbf"


class Rewound:
    """A binary stream whose first bytes were already read (to tell its format), served
    again before the rest: ``readline`` and ``read`` as on the stream itself."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head = head
        self._rest = rest

    @property
    def head(self) -> bytes:
        """The bytes read ahead and not served yet."""
        return self._head

    def readline(self, limit: int = -1) -> bytes:
        """The next line (at most ``limit`` bytes when ``limit`` >= 0)."""
        if not self._head:
            return self._rest.readline(limit)
        end = self._head.find(b"\n") + 1
        if end and (limit < 0 or end <= limit):
            line, self._head = self._head[:end], self._head[end:]
            return line
        if 0 <= limit <= len(self._head):
            line, self._head = self._head[:limit], self._head[limit:]
            return line
        line, self._head = self._head, b""
        return line + self._rest.readline(-1 if limit < 0 else limit - len(line))

    def read(self, size: int = -1) -> bytes:
        """The next ``size`` bytes (all that is left when ``size`` < 0)."""
        head, self._head = self._head, b""
        if size < 0:
            return head + self._rest.read()
        if len(head) >= size:
            self._head = head[size:]
            return head[:size]
        return head + self._rest.read(size - len(head))


def first_byte(handle: Any, *, limit: int = MAX_LINE_BYTES) -> tuple[bytes, Rewound]:
    """The first byte of the stream that is not blank (after a BOM; ``b""`` when there is
    none within ``limit`` bytes), and the stream with nothing consumed."""
    head = b""
    while len(head) < limit:
        chunk = handle.read1(65536)  # what is there now (a pipe: without waiting for more)
        if not chunk:
            break
        head += chunk
        if head.removeprefix(BOM).lstrip():
            break
    stripped = head.removeprefix(BOM).lstrip()
    return stripped[:1], Rewound(head, handle)


def open_source(path: str | Path) -> BinaryIO:
    """The file (or pipe) opened for reading, once; InputError when it cannot be."""
    handle: BinaryIO = _open(path)
    return handle


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
    with _open(path) as handle:
        yield from handle_objects(handle, str(path), limit=limit)


def handle_objects(
    handle: BinaryIO | Rewound, file: str, *, limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, dict[str, Any]]]:
    """:func:`stream_objects` of a stream already open (read once, from where it is)."""
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

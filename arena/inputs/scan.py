"""A vectorised pre-check of JSONL bytes, for parsers that are fast but not safe.

pyarrow's JSON reader (the battle-log fast path) crashes the process on deeply nested input
(a segmentation fault at 100,000 levels: its parser recurses) and accepts ``NaN`` and
``Infinity``, which :func:`arena.inputs.files.parse_json` refuses. :func:`plain_jsonl` tells
whether every line nests at most ``MAX_NESTING`` levels and holds no bare ``NaN``/``Infinity``
outside strings: a search for those two words and a count of brackets per line settle an
ordinary log
(a few hundredths of a second per 100 MB), and only a block where those fail is scanned
exactly, strings masked out, in numpy passes; anything else goes to the
strict row-by-row reader, which names the line. A raw newline cannot be inside a JSON string,
so every line is scanned from a fresh state and blocks end at line ends.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from arena.inputs.files import MAX_NESTING

BLOCK_BYTES = 1 << 22  # about 60 MB of numpy temporaries per block
_QUOTE, _BACKSLASH, _NEWLINE = 34, 92, 10
_OPEN = np.zeros(256, dtype=np.int8)
_OPEN[[ord("["), ord("{")]] = 1
_OPEN[[ord("]"), ord("}")]] = -1
_BARE = np.zeros(256, dtype=bool)
_BARE[[ord("N"), ord("I")]] = True  # NaN, Infinity: no JSON literal has these letters


def plain_jsonl(path: str | Path, *, limit: int = MAX_NESTING) -> bool:
    """Whether every line of the file nests at most ``limit`` deep, without NaN/Infinity."""
    with open(path, "rb") as handle:
        rest = b""
        while True:
            chunk = handle.read(BLOCK_BYTES)
            block = rest + chunk
            if not chunk:
                return _plain_block(block, limit)
            cut = block.rfind(b"\n") + 1
            if cut and not _plain_block(block[:cut], limit):
                return False
            rest = block[cut:]


def _plain_block(data: bytes, limit: int) -> bool:
    """Cheap sufficient checks first (no ``NaN``/``Infinity`` bytes at all, at most ``limit``
    opening brackets on any line, strings included); the exact scan only when they fail."""
    if not data:
        return True
    b = np.frombuffer(data, dtype=np.uint8)
    clean = not (_spelled(b, "NaN") or _spelled(b, "Infinity"))
    return (clean and _most_opens_on_a_line(b) <= limit) or _exact(data, limit)


def _spelled(b: NDArray[np.uint8], word: str) -> bool:
    """Whether ``word`` occurs anywhere in ``b`` (its first letter is rare in a log)."""
    starts = np.flatnonzero(b == ord(word[0]))
    for offset, char in enumerate(word[1:], 1):
        starts = starts[starts + offset < len(b)]
        starts = starts[b[starts + offset] == ord(char)]
        if not len(starts):
            return False
    return bool(len(starts))


def _most_opens_on_a_line(b: NDArray[np.uint8]) -> int:
    opens = np.flatnonzero((b == ord("[")) | (b == ord("{")))
    ends = np.flatnonzero(b == _NEWLINE)
    per_line = np.diff(np.searchsorted(opens, ends), prepend=0)
    tail = len(opens) - (int(np.searchsorted(opens, ends[-1])) if len(ends) else 0)
    return max(int(per_line.max(initial=0)), tail)


def _exact(data: bytes, limit: int) -> bool:
    """Strings masked out, line by line: the real nesting depth and bare letters."""
    b = np.frombuffer(data, dtype=np.uint8)
    index = np.arange(len(b), dtype=np.int32)
    line_start = np.maximum.accumulate(np.where(b == _NEWLINE, index, 0))  # its newline
    quote = _real_quotes(b, index)
    quotes_so_far = np.cumsum(quote, dtype=np.int32)
    before_line = _at_line_start(quotes_so_far - quote, line_start)
    outside = ((quotes_so_far - before_line) % 2 == 0) & ~quote
    if np.any(_BARE[b] & outside):
        return False
    step = np.where(outside, _OPEN[b], 0).astype(np.int32)
    depth = np.cumsum(step, dtype=np.int32)
    depth -= _at_line_start(depth - step, line_start)
    return bool(depth.max() <= limit)


def _real_quotes(b: NDArray[np.uint8], index: NDArray[np.int32]) -> NDArray[np.bool_]:
    """Quotes not escaped by an odd run of backslashes just before them."""
    backslash = b == _BACKSLASH
    last_other = np.maximum.accumulate(np.where(backslash, -1, index))
    run_before = np.zeros(len(b), dtype=np.int32)
    run_before[1:] = index[:-1] - last_other[:-1]
    return (b == _QUOTE) & (run_before % 2 == 0)


def _at_line_start(running: NDArray[np.int32], line_start: NDArray[np.int32]) -> NDArray[np.int32]:
    """A running total (exclusive) as it stood where each position's line began."""
    return running[line_start]

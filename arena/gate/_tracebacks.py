"""Tracebacks fit for a pull-request comment: only the frames in the user's own files.

A stored run error is ``Type: message`` and, for your own agent, a blank line and the
traceback (``arena.runner._execute``). :func:`error_line` is the first part on one line;
:func:`trim_traceback` keeps, in each exception of the chain, the frames in your files (not
the standard library, not an installed package, not agent-arena), the exception lines, and
says how many frames it hid. An exception raised with no frame of yours keeps its last frame.
The whole traceback stays in the stored result (``arena show``).
"""

from __future__ import annotations

import functools
import re
import sysconfig
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.reports._format import one_line

_FRAME = re.compile(r'^(?P<indent>[ \t|+-]*)File "(?P<path>[^"]+)", line \d+')
_HEAD = "Traceback (most recent call last):"
_LIBRARY_PARTS = ("site-packages", "dist-packages")


def error_line(error: str) -> str:
    """The error's exception type and message (its first paragraph), on one line."""
    return one_line(error.split("\n\n", 1)[0])


def traceback_of(error: str) -> str | None:
    """The traceback stored after the error's first paragraph, or None."""
    _, sep, rest = error.partition("\n\n")
    return rest.strip("\n") if sep and _HEAD in rest else None


@functools.cache
def _library_roots() -> tuple[Path, ...]:
    """The standard library, the installed packages and agent-arena's own packages."""
    import judges

    paths = sysconfig.get_paths()
    roots = [paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    roots += [str(Path(__file__).parents[1]), str(Path(judges.__file__).parent)]
    return tuple(Path(r).resolve() for r in roots)


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def is_user_file(path: str, user_dirs: Sequence[Path] = ()) -> bool:
    """True for a file of the user's own code: under one of ``user_dirs`` (the factory's
    package, wherever it is installed), else anything but the standard library, installed
    packages and agent-arena itself."""
    if path.startswith("<"):  # <frozen importlib._bootstrap>, <string>
        return False
    file = Path(path).resolve()
    if any(_under(file, d.resolve()) for d in user_dirs):
        return True
    if any(part in _LIBRARY_PARTS for part in file.parts):
        return False
    return not any(_under(file, root) for root in _library_roots())


def _shown(path: str, user_dirs: Sequence[Path]) -> str:
    """The path as a reviewer reads it: relative to the working directory or its package."""
    file = Path(path).resolve()
    for base in (Path.cwd().resolve(), *(d.resolve().parent for d in user_dirs)):
        if _under(file, base):
            return str(file.relative_to(base))
    return path


@dataclass
class _Block:
    """One exception of a chain: its frames (each with its source lines) and what follows."""

    lead: list[str] = field(default_factory=list)
    frames: list[list[str]] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)


def _blocks(lines: Iterable[str]) -> list[_Block]:
    blocks = [_Block()]
    indent = ""
    for line in lines:
        match = _FRAME.match(line)
        block = blocks[-1]
        if line.strip() == _HEAD:
            if block.frames or block.tail:
                blocks.append(_Block())
            blocks[-1].lead.append(line)
        elif match:
            indent = match["indent"]
            block.frames.append([line])
        elif block.frames and not block.tail and line.startswith(indent + " "):
            block.frames[-1].append(line)  # the frame's source line and its ^^^ markers
        elif block.frames or block.tail:
            block.tail.append(line)
        else:
            block.lead.append(line)
    return blocks


def _trim(block: _Block, user_dirs: Sequence[Path]) -> list[str]:
    def path(frame: list[str]) -> str:
        found = _FRAME.match(frame[0])
        return found["path"] if found else ""

    kept = [f for f in block.frames if is_user_file(path(f), user_dirs)] or block.frames[-1:]
    hidden = len(block.frames) - len(kept)
    head = _HEAD  # also when the stored traceback's start was cut off
    if hidden:
        head = head.replace(
            "last):", f"last; {hidden} frame{'s' * (hidden != 1)} outside your code hidden):"
        )
    lead = [head] if block.frames else []
    frames = [
        [frame[0].replace(path(frame), _shown(path(frame), user_dirs), 1), *frame[1:]]
        for frame in kept
    ]
    return [*lead, *(line for frame in frames for line in frame), *block.tail]


def trim_traceback(text: str, user_dirs: Sequence[Path] = ()) -> str:
    """The traceback with only the frames in the user's files (module docstring)."""
    blocks = _blocks(text.splitlines())
    if not any(block.frames for block in blocks):
        return text.strip("\n")
    lines = [line for block in blocks for line in _trim(block, user_dirs)]
    return "\n".join(lines).strip("\n")


def trace_key(text: str | None) -> str | None:
    """What makes two trimmed tracebacks the same: their frames and first exception line
    (not the notes after it, which may name a task id)."""
    if text is None:
        return None
    lines = text.splitlines()
    frames = [line.strip() for line in lines if _FRAME.match(line)]
    raised = next(
        (
            line
            for line in lines
            if line.strip() and not line[0].isspace() and "Traceback" not in line
        ),
        "",
    )
    return "\n".join([*frames, raised])

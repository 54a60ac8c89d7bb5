"""The sandbox: a per-task directory an agent's tools may write into, and nowhere else.

The runner owns it: each task of a run gets a folder of its own (:meth:`Sandbox.create`),
created fresh, never shared with another task, run, database or process, and removed
(:meth:`Sandbox.release`) only after its files were snapshotted (stored with the result), and
only if it lies inside the sandbox root. While a task runs, that sandbox is the task's
(:func:`use_sandbox`, read back with :func:`task_sandbox`), so a tool built once and shared
by many tasks (given :data:`TASK_SANDBOX`, as the research agent's ``write_file`` is) writes
into the sandbox of the task calling it.

A foundation (the standard library and :mod:`arena.paths` only): the runner and an agent's
tools both import it, neither importing the other.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path, PurePosixPath
from typing import Final

from arena.paths import safe_name, sandbox_base

MAX_FILE_BYTES = 100_000
MAX_READ_BYTES = 1_000_000
MAX_PATH_CHARS = 1024
MAX_PATH_PARTS = 32
MAX_SNAPSHOT_FILES = 500
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class SandboxError(Exception):
    """A rejected path; the message is shown to the agent after "Error: "."""


class Sandbox:
    """Files written by an agent run, confined to ``root``.

    ``write`` never raises: bad paths, escapes and oversized content return "Error: ..." text.
    ``base`` is the folder ``root`` must stay inside for :meth:`release` to delete it.
    """

    def __init__(self, root: Path | str, *, base: Path | str | None = None) -> None:
        self.root = Path(root)
        self.base = Path(base) if base is not None else None
        self.released = False

    @classmethod
    def create(cls, folder: Path, *, base: Path | None = None) -> Sandbox:
        """A fresh, empty sandbox named after ``folder`` (``<folder>-<random>``), inside
        ``base`` (default: arena.paths.sandbox_base()). Raises SandboxError if ``folder`` is
        not inside ``base``; nothing existing is ever emptied or reused."""
        base = (base or sandbox_base()).resolve()
        parent = folder.parent.resolve()
        if not parent.is_relative_to(base):
            raise SandboxError(f"sandbox folder {folder} is outside the sandbox root {base}")
        parent.mkdir(parents=True, exist_ok=True)
        name = folder.name if _SAFE_NAME.fullmatch(folder.name) else safe_name(folder.name)
        root = tempfile.mkdtemp(prefix=f"{name}-", dir=parent)
        return cls(root, base=base)

    def release(self) -> dict[str, str]:
        """Snapshot the files (see :meth:`files`), then delete the folder if it lies strictly
        inside ``base`` (SandboxError otherwise: nothing outside the root is ever removed)."""
        snapshot = self.files()
        self.released = True  # a tool thread still running may not recreate the folder
        if self.base is None:
            raise SandboxError(f"refusing to remove {self.root}: no sandbox root given")
        root, base = self.root.resolve(), self.base.resolve()
        if root == base or not root.is_relative_to(base) or self.root.is_symlink():
            raise SandboxError(f"refusing to remove {self.root}: not inside {base}")
        shutil.rmtree(root, ignore_errors=True)
        return snapshot

    def write(self, path: str, content: str) -> str:
        """Write ``content`` (UTF-8) to the relative ``path`` inside the sandbox."""
        try:
            return self._write(path, content)
        except SandboxError as exc:
            return f"Error: {exc}"
        except OSError as exc:
            return f"Error: could not write {_show(path)}: {exc.strerror or type(exc).__name__}"
        except Exception as exc:  # the promise: never raise to the agent
            return f"Error: could not write {_show(path)} ({type(exc).__name__})"

    def _write(self, path: str, content: str) -> str:
        if self.released:
            return "Error: the run is over; the sandbox is closed"
        if not isinstance(content, str):
            return "Error: content must be text"
        try:
            data = content.encode("utf-8")
        except UnicodeEncodeError:
            return "Error: content is not valid Unicode text (it holds a lone surrogate)"
        if len(data) > MAX_FILE_BYTES:
            return f"Error: content too large ({len(data)} bytes; limit {MAX_FILE_BYTES} bytes)"
        relative = self._check(path)
        target = self._target(relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        target = self._target(relative)  # re-check: a directory on the way may be a link
        with open(target, "wb", opener=_no_follow) as handle:
            handle.write(data)
        return f"Wrote {len(content)} characters to {relative}."

    def files(self) -> dict[str, str]:
        """A snapshot of the regular files in the sandbox: relative POSIX path -> text.

        At most MAX_SNAPSHOT_FILES files of at most MAX_READ_BYTES each; unreadable files and
        symbolic links are skipped, undecodable bytes (in names or text) become U+FFFD.
        """
        if not self.root.is_dir():
            return {}
        root = self.root.resolve()
        snapshot: dict[str, str] = {}
        for folder, dirs, names in os.walk(root, followlinks=False):
            dirs.sort()
            for name in sorted(names):
                if len(snapshot) >= MAX_SNAPSHOT_FILES:
                    return dict(sorted(snapshot.items()))
                file = Path(folder) / name
                text = _read(file)
                if text is not None:
                    snapshot[_text(file.relative_to(root).as_posix())] = text
        return dict(sorted(snapshot.items()))

    def _check(self, path: object) -> str:
        """The normalised relative path, or SandboxError saying why it is refused."""
        if not isinstance(path, str) or not path.strip():
            raise SandboxError("empty file name; give a relative path like notes/summary.txt")
        if len(path) > MAX_PATH_CHARS:
            raise SandboxError(f"path too long ({len(path)} characters; limit {MAX_PATH_CHARS})")
        try:
            path.encode("utf-8")
        except UnicodeEncodeError:
            raise SandboxError("file names must be valid Unicode text") from None
        text = path.strip().replace("\\", "/")
        if "\x00" in text:
            raise SandboxError("file names may not contain NUL characters")
        if _CONTROL.search(text):
            raise SandboxError("file names may not contain control characters")
        if text.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", text):
            raise SandboxError(
                f"absolute paths are not allowed ({path!r}); use a relative path like notes/x.txt"
            )
        parts = [p for p in PurePosixPath(text).parts if p not in ("", ".")]
        if ".." in parts:
            raise SandboxError(f"'..' is not allowed in paths ({path!r})")
        if not parts or text.endswith("/"):
            raise SandboxError(f"missing file name in {path!r}")
        if len(parts) > MAX_PATH_PARTS:
            raise SandboxError(f"path too deep ({len(parts)} levels; limit {MAX_PATH_PARTS})")
        if any(len(p.encode("utf-8")) > 255 for p in parts):
            raise SandboxError("a path component is longer than 255 bytes")
        return "/".join(parts)

    def _target(self, relative: str) -> Path:
        root = self.root.resolve()
        target = root.joinpath(*relative.split("/"))
        resolved = target.resolve()
        if resolved == root or not resolved.is_relative_to(root):
            raise SandboxError(f"path escapes the sandbox ({relative!r})")
        if target.is_symlink():
            raise SandboxError(f"refusing to write through a symbolic link ({relative!r})")
        if target.is_dir():
            raise SandboxError(f"{relative!r} is a directory")
        return target


class TaskSandbox:
    """The type of :data:`TASK_SANDBOX`: a tool given it writes into the sandbox of the task
    running it (see :func:`use_sandbox`, :func:`task_sandbox`)."""

    def __repr__(self) -> str:
        return "TASK_SANDBOX"


TASK_SANDBOX: Final = TaskSandbox()
"""Give a tool this instead of a :class:`Sandbox` to build it once and share it between tasks
(``build_tools(sandbox=TASK_SANDBOX)``): each call then writes into the sandbox
:func:`use_sandbox` set for the task (asyncio task and thread context) running it, or finds
none (:func:`task_sandbox` is None) outside every task."""

_ACTIVE_SANDBOX: ContextVar[Sandbox | None] = ContextVar("arena_task_sandbox", default=None)


@contextmanager
def use_sandbox(sandbox: Sandbox | None) -> Iterator[None]:
    """Make ``sandbox`` the task's sandbox for tools given :data:`TASK_SANDBOX`, in this
    context (an asyncio task and the tool threads it starts) until the block ends."""
    token = _ACTIVE_SANDBOX.set(sandbox)
    try:
        yield
    finally:
        _ACTIVE_SANDBOX.reset(token)


def task_sandbox(sandbox: Sandbox | TaskSandbox | None) -> Sandbox | None:
    """The sandbox a tool given ``sandbox`` writes into now: for :data:`TASK_SANDBOX`, the
    running task's (set by :func:`use_sandbox`; None outside every task), else ``sandbox``."""
    return _ACTIVE_SANDBOX.get() if isinstance(sandbox, TaskSandbox) else sandbox


def _no_follow(path: str, flags: int) -> int:
    """os.open that refuses to follow a symbolic link at the final path component."""
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o644)


def _read(file: Path) -> str | None:
    """The text of a regular file (at most MAX_READ_BYTES), or None for links and failures."""
    try:
        if file.is_symlink() or not file.is_file():
            return None
        with open(file, "rb") as handle:
            return handle.read(MAX_READ_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def _text(name: str) -> str:
    """A file name as valid Unicode (bytes that were not UTF-8 become U+FFFD)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _show(path: object) -> str:
    """A short, printable rendering of a rejected path for error messages."""
    text = repr(path)
    return text if len(text) <= 80 else text[:77] + "..."

"""A per-run directory the Research Agent's ``write_file`` tool may write into, and nowhere else."""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

MAX_FILE_BYTES = 100_000
MAX_READ_BYTES = 1_000_000


class SandboxError(Exception):
    """A rejected path; the message is shown to the agent after "Error: "."""


class Sandbox:
    """Files written by an agent run, confined to ``root``.

    ``write`` never raises: bad paths, escapes and oversized content return "Error: ..." text.
    """

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def write(self, path: str, content: str) -> str:
        """Write ``content`` (UTF-8) to the relative ``path`` inside the sandbox."""
        if not isinstance(content, str):
            return "Error: content must be text"
        size = len(content.encode("utf-8"))
        if size > MAX_FILE_BYTES:
            return f"Error: content too large ({size} bytes; limit {MAX_FILE_BYTES} bytes)"
        try:
            relative = self._check(path)
            target = self._target(relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target = self._target(relative)  # re-check: a directory on the way may be a link
            with open(target, "w", encoding="utf-8", opener=_no_follow) as handle:
                handle.write(content)
        except SandboxError as exc:
            return f"Error: {exc}"
        except OSError as exc:
            return f"Error: could not write {path!r}: {exc.strerror or exc}"
        return f"Wrote {len(content)} characters to {relative}."

    def files(self) -> dict[str, str]:
        """A snapshot of every regular file in the sandbox: relative POSIX path -> text."""
        if not self.root.is_dir():
            return {}
        root = self.root.resolve()
        snapshot: dict[str, str] = {}
        for folder, dirs, names in os.walk(root, followlinks=False):
            dirs.sort()
            for name in sorted(names):
                file = Path(folder) / name
                if file.is_symlink() or not file.is_file():
                    continue
                with open(file, "rb") as handle:
                    data = handle.read(MAX_READ_BYTES)
                snapshot[file.relative_to(root).as_posix()] = data.decode("utf-8", "replace")
        return dict(sorted(snapshot.items()))

    def _check(self, path: object) -> str:
        """The normalised relative path, or SandboxError saying why it is refused."""
        if not isinstance(path, str) or not path.strip():
            raise SandboxError("empty file name; give a relative path like notes/summary.txt")
        text = path.strip().replace("\\", "/")
        if "\x00" in text:
            raise SandboxError("file names may not contain NUL characters")
        if text.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", text):
            raise SandboxError(
                f"absolute paths are not allowed ({path!r}); use a relative path like notes/x.txt")
        parts = [p for p in PurePosixPath(text).parts if p not in ("", ".")]
        if ".." in parts:
            raise SandboxError(f"'..' is not allowed in paths ({path!r})")
        if not parts or text.endswith("/"):
            raise SandboxError(f"missing file name in {path!r}")
        if any(len(p) > 255 for p in parts):
            raise SandboxError("a path component is longer than 255 characters")
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


def _no_follow(path: str, flags: int) -> int:
    """os.open that refuses to follow a symbolic link at the final path component."""
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o644)

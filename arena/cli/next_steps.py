"""What to type next after ``arena demo``, in the shell that ran it.

README's first command runs ``.venv/bin/arena demo`` without activating the virtual
environment, so a bare ``arena`` is not on that shell's PATH yet: the demo's last lines say
how to get it there (``source .venv/bin/activate``), or the path that works as is.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

#: The README's five-minute tour, after ``arena app``: each reads the demo's database.
TOUR = ("runs", "score", "ratings", "health")


def _same_file(a: str | Path, b: Path) -> bool:
    try:
        return Path(a).resolve() == b.resolve()
    except OSError:
        return False


def _shown(path: Path, cwd: Path) -> str:
    """``path`` relative to ``cwd`` when inside it (``.venv/bin/arena``), else absolute."""
    absolute = path.absolute()
    if absolute.is_relative_to(cwd.absolute()):
        return shlex.quote(absolute.relative_to(cwd.absolute()).as_posix())
    return shlex.quote(str(absolute))


def next_steps(
    db: str | None = None,
    *,
    prefix: Path | None = None,
    path: str | None = None,
    cwd: Path | None = None,
) -> list[str]:
    """The demo's closing lines: the commands to type next in this shell, exactly.

    Args:
        db: the database URL given with ``--db`` (None: the default, which the next commands
            find again in the same folder).
        prefix: the environment ``arena`` is installed in (default ``sys.prefix``).
        path: the shell's PATH (default ``$PATH``).
        cwd: the shell's folder (default the working directory).
    """
    prefix = Path(sys.prefix) if prefix is None else prefix
    path = os.environ.get("PATH", "") if path is None else path
    cwd = Path.cwd() if cwd is None else cwd
    script = prefix / "bin" / "arena"
    flag = f" --db {shlex.quote(db)}" if db else ""
    tour = ", ".join(f"`arena {c}{flag}`" for c in TOUR)
    found = shutil.which("arena", path=path)
    if found and _same_file(found, script):
        return [
            f"next: `arena app{flag}` (the leaderboard in your browser); the README's tour: {tour}"
        ]
    if (prefix / "bin" / "activate").is_file() and script.is_file():
        venv = _shown(prefix, cwd)
        return [
            f"next, in this shell: `source {venv}/bin/activate` (puts arena on its PATH), "
            f"then `arena app{flag}` (the leaderboard in your browser);",
            f"the README's tour: {tour}; or, without activating, `{_shown(script, cwd)} app{flag}`",
        ]
    python = f"{_shown(Path(sys.executable), cwd)} -m arena.cli"
    return [
        f"next: `{python} app{flag}` (the leaderboard in your browser); "
        f"the README's tour: {tour.replace('`arena ', f'`{python} ')}"
    ]

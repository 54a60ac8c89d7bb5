"""Command lines of the CLI shared by the tests (``main(argv)`` or a real subprocess)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

PathLike = Path | str


def run_argv(
    variants: PathLike | Sequence[PathLike], dataset: PathLike, db: str, *extra: str
) -> list[str]:
    """``run --variants V... --dataset D --db DB EXTRA...``, for ``arena.cli.main``."""
    files = [variants] if isinstance(variants, Path | str) else list(variants)
    return ["run", "--variants", *map(str, files), "--dataset", str(dataset), "--db", db, *extra]


def arena_command(*argv: str) -> list[str]:
    """``python -m arena.cli ARGV...`` with this interpreter, for a subprocess."""
    return [sys.executable, "-m", "arena.cli", *argv]

"""Options and helpers shared by several sub-commands."""

from __future__ import annotations

import argparse
from pathlib import Path

from arena.paths import data_dir


def add_db(parser: argparse.ArgumentParser) -> None:
    """--db URL (default $ARENA_DB_URL, else sqlite:///arena.db)."""
    parser.add_argument("--db", default=None,
                        help="SQLAlchemy URL (default: $ARENA_DB_URL or sqlite:///arena.db)")


def default_dataset() -> str:
    """The shipped golden dataset."""
    return str(data_dir() / "golden" / "research_agent.json")


def write_text(path: str, text: str) -> None:
    """Write a report file, creating its folder."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")

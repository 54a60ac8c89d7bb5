"""Options and helpers shared by several sub-commands."""

from __future__ import annotations

import argparse
from pathlib import Path

from arena.paths import data_dir


def add_db(parser: argparse.ArgumentParser) -> None:
    """--db URL (default $ARENA_DB_URL, else sqlite:///arena.db).

    The URL is checked when the store opens (:func:`arena.storage.engine.check_url`): a bad one
    is an InputError naming --db (exit 2) before anything is created or written.
    """
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="SQLAlchemy URL, e.g. sqlite:///arena.db or "
        "postgresql+psycopg://user@host/dbname; an SQLite file's folder "
        "must exist (default: $ARENA_DB_URL or sqlite:///arena.db)",
    )


def default_dataset() -> str:
    """The shipped golden dataset."""
    return str(data_dir() / "golden" / "research_agent.json")


def write_text(path: str, text: str) -> None:
    """Write a report file, creating its folder."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")

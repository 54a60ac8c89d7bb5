"""Older databases for the upgrade tests: the fixtures written by older commits
(``tests/storage/fixtures``, see its README) and today's database turned back into one of
0.1.0's (no revision recorded, some tables missing)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "storage" / "fixtures"
OLD_COMMITS = ("9c40ccf", "ce8052d")
"""The commits whose code wrote the fixture databases, oldest first."""


def old_database(commit: str, folder: Path) -> Path:
    """A copy, in ``folder``, of the database the code of ``commit`` wrote (and its baseline
    file beside it, ``baseline.json``)."""
    target = folder / f"arena-{commit}.db"
    shutil.copyfile(FIXTURES / f"arena-{commit}.db", target)
    shutil.copyfile(FIXTURES / f"baseline-{commit}.json", folder / "baseline.json")
    return target


def as_unversioned(path: Path, *, drop: tuple[str, ...] = ()) -> None:
    """Make today's SQLite database one of 0.1.0's: no revision, no ``schema_releases``, no
    ``scores.rules_version``, and without the tables ``drop`` (as before they were added)."""
    with sqlite3.connect(path) as conn:
        for table in (*drop, "alembic_version", "schema_releases"):
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute("ALTER TABLE scores DROP COLUMN rules_version")
    conn.close()

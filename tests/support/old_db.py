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


RELEASE_0_1_0_TABLES = frozenset(
    {
        "datasets",
        "cases",
        "variants",
        "runs",
        "results",
        "steps",
        "dialogues",
        "node_paths",
        "node_states",
        "response_cache",
        "battles",
        "votes",
        "verdict_cache",
        "scores",
        "baselines",
        "mutations",
    }
)
"""The tables of agent-arena 0.1.0 (revision 0001); later revisions add the others."""


def as_unversioned(path: Path, *, drop: tuple[str, ...] = ()) -> None:
    """Make today's SQLite database one of 0.1.0's: no revision, no table a later revision
    added (``schema_releases``, ...), no ``scores.rules_version``, and without the tables
    ``drop`` of 0.1.0 (as before they were added)."""
    with sqlite3.connect(path) as conn:
        tables = {t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        later = tables - RELEASE_0_1_0_TABLES - {"sqlite_sequence"}
        for table in (*drop, *sorted(later)):
            conn.execute(f'DROP TABLE IF EXISTS "{table}"')
        conn.execute("ALTER TABLE scores DROP COLUMN rules_version")
    conn.close()

"""Read-only database checks for the app: every problem named, nothing created or written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.storage import DatabaseProblem, Store, database_problem, masked_url

pytestmark = pytest.mark.unit


def _sqlite(path: Path) -> str:
    return f"sqlite:///{path}"


def test_a_store_database_has_no_problem(tmp_path: Path) -> None:
    path = tmp_path / "arena.db"
    Store(_sqlite(path))
    before = path.read_bytes()
    assert database_problem(_sqlite(path)) is None
    assert path.read_bytes() == before  # the check writes nothing


def test_missing_file_is_reported_not_created(tmp_path: Path) -> None:
    path = tmp_path / "arena.db"
    assert database_problem(_sqlite(path)) == DatabaseProblem(kind="missing", path=str(path))
    assert not path.exists()


def test_folder_and_empty_file(tmp_path: Path) -> None:
    assert database_problem(_sqlite(tmp_path)) == DatabaseProblem(kind="folder", path=str(tmp_path))
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert database_problem(_sqlite(empty)) == DatabaseProblem(kind="empty", path=str(empty))
    assert empty.stat().st_size == 0


def test_not_a_database_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("certainly not SQLite " * 100)
    problem = database_problem(_sqlite(path))
    assert problem is not None and problem.kind == "unreadable"
    assert "DatabaseError" in problem.detail


def test_sqlite_without_arena_tables(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE runs (id INTEGER)")
    assert database_problem(_sqlite(path)) == DatabaseProblem(kind="no_tables")


@pytest.mark.parametrize(
    ("url", "kind"), [("not a url", "bad_url"), ("nosuchdialect://x/y", "unreadable")]
)
def test_bad_urls_are_problems_not_crashes(url: str, kind: str) -> None:
    problem = database_problem(url)
    assert problem is not None and problem.kind == kind and problem.detail


def test_masked_url_hides_the_password() -> None:
    shown = masked_url("postgresql://arena:s3cret@127.0.0.1:5432/arena")
    assert "s3cret" not in shown and shown.startswith("postgresql://arena:***@127.0.0.1")
    assert masked_url("sqlite:///arena.db") == "sqlite:///arena.db"
    assert masked_url("not a url") == "not a url"

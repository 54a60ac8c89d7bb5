"""The schema's revisions: they agree with the ORM tables, a new database records its revision,
databases written by older commits (``tests/storage/fixtures``) upgrade keeping every row, a
read-only command leaves an old file as it was, and a newer database is refused."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from arena import __version__
from arena.cli import main
from arena.errors import InputError
from arena.storage import Store, database_status, head_revision, upgrade_database
from arena.storage._schema import alembic_config
from arena.storage._tables import Base
from tests.support.old_db import OLD_COMMITS, old_database

pytestmark = pytest.mark.unit


def _rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (columns in their order, rows by rowid)."""
    conn = sqlite3.connect(path)
    try:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            t: conn.execute(f'SELECT * FROM "{t}" ORDER BY rowid').fetchall()
            for t in tables
            if not t.startswith("sqlite_")
        }
    finally:
        conn.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_tables_and_the_migrations_agree(tmp_path: Path) -> None:
    """Fails when a table or column of arena/storage/_tables.py has no migration revision
    (docs/storage.md, "Adding a table or a column"): the revisions, run on an empty database,
    must make exactly the ORM's schema."""
    engine = create_engine(f"sqlite:///{tmp_path / 'migrated.db'}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "head")
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    engine.dispose()
    assert diff == [], f"the ORM tables differ from the migrations: add a revision: {diff}"
    assert revision == head_revision()


def test_a_new_database_records_its_revision_and_release(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    Store(f"sqlite:///{path}").close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
        (head_revision(),)
    ]
    assert conn.execute("SELECT revision, release FROM schema_releases").fetchall() == [
        (head_revision(), __version__)
    ]
    conn.close()
    assert database_status(f"sqlite:///{path}").state == "current"


@pytest.mark.parametrize("commit", OLD_COMMITS)
def test_a_database_of_an_older_commit_upgrades_keeping_every_row(
    tmp_path: Path, commit: str
) -> None:
    path = old_database(commit, tmp_path)
    before = _rows(path)
    assert "alembic_version" not in before and "rules_version" not in str(
        sqlite3.connect(path)
        .execute("SELECT sql FROM sqlite_master WHERE name='scores'")
        .fetchone()
    )
    store = Store(f"sqlite:///{path}")
    assert store.upgraded is not None and store.upgraded.from_revision is None
    assert store.upgraded.to_revision == head_revision()
    backup = Path(store.upgraded.backup or "")
    store.close()
    assert backup.parent == tmp_path and _rows(backup) == before  # the database before it
    after = _rows(path)
    for table, rows in before.items():
        if table == "scores":  # the new column last, 0: graded before rules were versioned
            assert [r[:-1] for r in after[table]] == rows, table
            assert {r[-1] for r in after[table]} == {0}
        else:
            assert after[table] == rows, table
    assert len(before["results"]) == 12 and len(before["battles"]) == 18
    assert set(after) - set(before) >= {"votes", "node_paths", "node_states", "mutations"}
    assert after["alembic_version"] == [(head_revision(),)]
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:  # the upgraded schema is exactly today's
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    engine.dispose()


def test_a_migration_adds_a_column_to_an_existing_table_of_an_old_fixture(
    tmp_path: Path,
) -> None:
    """Revision 0002 adds ``scores.rules_version`` to the existing ``scores`` table: the old
    rows keep their values and read back through the Store."""
    path = old_database(OLD_COMMITS[0], tmp_path)
    before = sqlite3.connect(path).execute("SELECT id, body FROM scores ORDER BY id").fetchall()
    upgrade_database(f"sqlite:///{path}")
    engine = create_engine(f"sqlite:///{path}")
    columns = {c["name"] for c in inspect(engine).get_columns("scores")}
    engine.dispose()
    assert "rules_version" in columns
    store = Store(f"sqlite:///{path}", read_only=True)
    grader, scores = store.scores(1)
    assert grader == "keywords" and len(scores) == len(before) == 12
    assert store.score_rules(1, grader) == 0


@pytest.mark.parametrize(
    "argv",
    [["runs"], ["show", "1"], ["history", "K-1"], ["baseline", "list"], ["battles", "export", "1"]],
)
def test_a_read_only_command_leaves_an_old_database_byte_for_byte(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = old_database(OLD_COMMITS[1], tmp_path)
    original = _digest(path)
    assert main([*argv, "--db", f"sqlite:///{path}"]) == 2
    err = capsys.readouterr().err
    assert "run `arena db upgrade`" in err and "left the database unchanged" in err
    assert _digest(path) == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arena-ce8052d.db", "baseline.json"]


def test_arena_db_status_and_upgrade(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = old_database(OLD_COMMITS[0], tmp_path)
    db = ["--db", f"sqlite:///{path}"]
    assert main(["db", "status", *db]) == 1
    assert "older: run `arena db upgrade`" in capsys.readouterr().out
    assert main(["db", "upgrade", *db]) == 0
    out = capsys.readouterr().out
    assert f"upgraded to schema revision {head_revision()}" in out and ".bak" in out
    assert main(["db", "status", *db]) == 0
    assert main(["db", "upgrade", *db]) == 0
    assert "already up to date" in capsys.readouterr().out
    assert main(["runs", *db]) == 0


def _from_the_future(path: Path) -> None:
    Store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as conn:  # what a newer agent-arena's upgrade leaves
        conn.execute("UPDATE alembic_version SET version_num = '9001'")
        conn.execute(
            "INSERT INTO schema_releases (revision, release, created_at) "
            "VALUES ('9001', '0.9.0', '2027-01-01 00:00:00')"
        )
    conn.close()


def test_a_newer_database_is_refused_naming_both_releases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "future.db"
    _from_the_future(path)
    original = _digest(path)
    with pytest.raises(InputError, match=rf"written by agent-arena 0\.9\.0, this is {__version__}"):
        Store(f"sqlite:///{path}")
    for argv in (["runs"], ["score"], ["db", "upgrade"]):
        assert main([*argv, "--db", f"sqlite:///{path}"]) == 2
        err = capsys.readouterr().err
        assert f"written by agent-arena 0.9.0, this is {__version__}: upgrade" in err
    assert main(["db", "status", "--db", f"sqlite:///{path}"]) == 2
    assert _digest(path) == original

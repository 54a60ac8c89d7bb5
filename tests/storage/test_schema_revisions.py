"""The schema's revisions read without Alembic: the same head and revisions as Alembic's own
loader, the same version table as its ``stamp``, and no Alembic import when a command only
creates or opens a database (an upgrade still runs through Alembic)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from arena.storage import Store, head_revision
from arena.storage import _schema as schema
from arena.storage._schema import alembic_config, known_revisions
from arena.storage._tables import Base

pytestmark = pytest.mark.unit


def test_the_head_and_the_revisions_are_alembics() -> None:
    scripts = ScriptDirectory.from_config(alembic_config())
    assert schema._revision_chain() is not None  # the fast path is the one taken here
    assert head_revision() == scripts.get_current_head()
    assert known_revisions() == {s.revision for s in scripts.walk_revisions()}


def _version_table(url: str) -> tuple[object, object, list[tuple[object, ...]]]:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = inspect(conn)
        columns = [
            (c["name"], str(c["type"]), c["nullable"]) for c in found.get_columns("alembic_version")
        ]
        key = found.get_pk_constraint("alembic_version")
        rows = list(conn.execute(text("SELECT * FROM alembic_version")).all())
    engine.dispose()
    return columns, key, rows


def test_a_new_database_is_stamped_as_alembic_stamps_it(tmp_path: Path) -> None:
    ours = f"sqlite:///{tmp_path / 'ours.db'}"
    Store(ours)
    theirs = f"sqlite:///{tmp_path / 'theirs.db'}"
    engine = create_engine(theirs)
    with engine.begin() as conn:
        Base.metadata.create_all(conn)
        MigrationContext.configure(conn).stamp(schema._scripts(), head_revision())
    engine.dispose()
    assert _version_table(ours) == _version_table(theirs)
    engine = create_engine(ours)
    with engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == head_revision()
    engine.dispose()


def test_creating_and_opening_a_database_import_no_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    code = (
        "import sys\n"
        "from arena.storage import Store\n"
        f"Store({url!r})\n"  # created
        f"Store({url!r})\n"  # opened at the code's revision
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_a_merge_revision_is_left_to_alembic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    versions = tmp_path / "versions"
    versions.mkdir()
    files = {
        "0001_a.py": 'revision = "0001"\ndown_revision = None\n',
        "0002_b.py": 'revision = "0002"\ndown_revision = "0001"\n',
        "0003_c.py": 'revision = "0003"\ndown_revision = "0001"\n',
        "0004_merge.py": 'revision = "0004"\ndown_revision = ("0002", "0003")\n',
    }
    for name, body in files.items():
        (versions / name).write_text(body)
    monkeypatch.setattr(schema, "MIGRATIONS", tmp_path)
    schema._revision_chain.cache_clear()
    try:
        assert schema._revision_chain() is None  # a merge: two revisions revised at once
        (versions / "0004_merge.py").unlink()
        schema._revision_chain.cache_clear()
        assert schema._revision_chain() is None  # two heads
        (versions / "0003_c.py").unlink()
        schema._revision_chain.cache_clear()
        assert schema._revision_chain() == {"0001": None, "0002": "0001"}
    finally:
        schema._revision_chain.cache_clear()

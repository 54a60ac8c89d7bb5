"""The upgrade on PostgreSQL (a throwaway local cluster): a database of 0.1.0's schema (no
revision) holding every row of an older commit's fixture is upgraded in one transaction with
every row kept; a newer one is refused."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, column, create_engine, insert, inspect, select, text
from sqlalchemy import table as sa_table

from arena import __version__
from arena.errors import InputError
from arena.storage import Store, head_revision
from arena.storage._schema import alembic_config
from arena.storage._tables import Base
from tests.support.old_db import OLD_COMMITS, old_database
from tests.support.postgres import postgres_cluster

pytestmark = pytest.mark.system


@pytest.fixture(scope="module")
def urls() -> Iterator[dict[str, str]]:
    """A throwaway PostgreSQL cluster with two empty databases."""
    with postgres_cluster(("old", "future")) as found:
        yield found


def _typed_rows(engine: Engine, columns: dict[str, set[str]]) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the fixture's tables, read through today's column types (JSON parsed,
    times as datetimes), columns the fixture has only, in primary-key order."""
    rows = {}
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            if table.name not in columns:
                continue
            cols = [c for c in table.c if c.name in columns[table.name]]
            keys = list(table.primary_key.columns)
            found = conn.execute(select(*cols).order_by(*keys))
            rows[table.name] = [tuple(_naive(v) for v in r) for r in found]
    return rows


def _naive(value: Any) -> Any:
    """A time in UTC without its zone (SQLite keeps none, PostgreSQL gives UTC)."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).replace(tzinfo=None)
    return value


def _unversioned_copy(fixture: Path, url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Make ``url`` a 0.1.0 database (its tables as 0.1.0's create_all made them, no revision)
    holding the fixture's rows; returns those rows."""
    old = create_engine(f"sqlite:///{fixture}")
    columns = {
        t: {c["name"] for c in inspect(old).get_columns(t)} for t in inspect(old).get_table_names()
    }
    rows = _typed_rows(old, columns)
    old.dispose()
    pg = create_engine(url)
    with pg.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")  # 0.1.0's tables, as create_all made them
        conn.execute(text("DROP TABLE alembic_version"))  # 0.1.0 recorded no revision
        for table in Base.metadata.sorted_tables:
            names = [c.name for c in table.c if c.name in columns.get(table.name, set())]
            values = [dict(zip(names, row, strict=True)) for row in rows.get(table.name, [])]
            bare = sa_table(table.name, *[column(n, table.c[n].type) for n in names])
            if values:  # the fixture's columns only (no default of a later column)
                conn.execute(insert(bare), values)
    pg.dispose()
    return rows


def test_an_older_database_upgrades_on_postgres_keeping_every_row(
    urls: dict[str, str], tmp_path: Path
) -> None:
    fixture = old_database(OLD_COMMITS[1], tmp_path)
    before = _unversioned_copy(fixture, urls["old"])
    assert len(before["results"]) == 12 and len(before["scores"]) == 12
    with pytest.raises(InputError, match="run `arena db upgrade`"):
        Store(urls["old"], read_only=True)
    store = Store(urls["old"])
    assert store.upgraded is not None and store.upgraded.backup is None  # no file to copy
    assert store.upgraded.to_revision == head_revision()
    store.close()
    pg = create_engine(urls["old"])
    columns = {t: {c.name for c in Base.metadata.tables[t].c} for t in before}
    after = _typed_rows(pg, columns)
    for table, rows in before.items():
        if table == "scores":  # the new column: 0, graded before rules were versioned
            index = [c.name for c in Base.metadata.tables["scores"].c].index("rules_version")
            assert [r[:index] + r[index + 1 :] for r in after[table]] == rows
            assert {r[index] for r in after[table]} == {0}
        else:
            assert after[table] == rows, table
    with pg.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        assert conn.execute(text("SELECT release FROM schema_releases")).scalars().all() == [
            __version__
        ]
    pg.dispose()
    assert Store(urls["old"], read_only=True).run(1).results == 12


def test_a_newer_database_is_refused_on_postgres(urls: dict[str, str]) -> None:
    Store(urls["future"]).close()
    pg = create_engine(urls["future"])
    with pg.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9001'"))
        conn.execute(
            text(
                "INSERT INTO schema_releases (revision, release, created_at) "
                "VALUES ('9001', '0.9.0', now())"
            )
        )
    pg.dispose()
    with pytest.raises(InputError, match=rf"written by agent-arena 0\.9\.0, this is {__version__}"):
        Store(urls["future"])

"""The database's schema revision, and its upgrade (Alembic revisions in ``migrations/``).

Every database records the revision of its schema (Alembic's ``alembic_version`` table) and
the releases that created or upgraded it (``schema_releases``). When a :class:`Store` opens:

* a new (empty) database gets every table and the newest revision;
* a database at the code's revision is only read;
* an older one (an older revision, or none: written before revisions were recorded) is
  upgraded by a writing command, in one transaction, after a backup copy of an SQLite file
  (:func:`upgrade_schema`; ``arena db upgrade`` does only that); a command that only reads
  refuses it and names ``arena db upgrade``, leaving the file as it was;
* a newer one (a revision this code does not know) is refused: "written by agent-arena X,
  this is Y: upgrade agent-arena".
"""

from __future__ import annotations

import re
import sys
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    create_engine,
    insert,
    inspect,
    select,
    text,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from arena._version import __version__
from arena.errors import InputError
from arena.storage._tables import Base, SchemaReleaseRow
from arena.storage._writes import ATTEMPTS, backoff, retryable

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).with_name("migrations")
"""The revisions, shipped inside the package (an installed wheel upgrades a database)."""
UPGRADE_COMMAND = "arena db upgrade"
VERSION_TABLE = "alembic_version"
_ADVISORY_KEY = 0x4152454E41  # "ARENA": one creator or upgrader at a time on PostgreSQL

SchemaState = Literal["empty", "current", "behind", "unversioned", "ahead"]


class SchemaStatus(BaseModel):
    """Where a database's schema stands against this code's."""

    model_config = ConfigDict(frozen=True)

    revision: str | None
    """The database's revision (None: no ``alembic_version`` table, or an empty one)."""
    head: str
    """This code's newest revision."""
    has_tables: bool
    """The database holds arena tables (False: a new, empty database)."""
    written_by: str | None = None
    """The agent-arena release that last created or upgraded the schema (None before 0.2.0)."""

    @property
    def state(self) -> SchemaState:
        """``empty``, ``current``, ``behind``, ``unversioned`` (older than revisions) or
        ``ahead`` (written by a newer agent-arena)."""
        if self.revision is None:
            return "unversioned" if self.has_tables else "empty"
        if self.revision == self.head:
            return "current"
        return "behind" if self.revision in known_revisions() else "ahead"

    def describe(self) -> str:
        """The schema in words: "revision 0001 (agent-arena 0.2.0)", "no revision (...)"."""
        if self.revision is None:
            return "no schema revision (written by agent-arena 0.1.0 or older)"
        release = f", agent-arena {self.written_by}" if self.written_by else ""
        return f"schema revision {self.revision}{release}"


class SchemaUpgrade(BaseModel):
    """What an upgrade did: from which revision to which, and where the backup copy is."""

    model_config = ConfigDict(frozen=True)

    from_revision: str | None
    to_revision: str
    backup: str | None = None
    """The SQLite backup copy made first (None for a server database, or in memory)."""

    def message(self, where: str) -> str:
        """One line for the user."""
        old = f"revision {self.from_revision}" if self.from_revision else "no revision (0.1.0)"
        kept = f"; the file before it: {self.backup}" if self.backup else ""
        return (
            f"upgraded the database {where} from schema {old} to {self.to_revision} "
            f"(agent-arena {__version__}){kept}"
        )


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the packaged revisions (on ``connection`` when given)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


@cache
def _scripts() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


_REVISION = re.compile(r"""^revision\s*=\s*["']([\w.-]+)["']\s*$""", re.M)
_DOWN_REVISION = re.compile(r"""^down_revision\s*=\s*(?:["']([\w.-]+)["']|None)\s*$""", re.M)


@cache
def _revision_chain() -> dict[str, str | None] | None:
    """Each revision and the one it revises, read from the ``revision`` and ``down_revision``
    lines of the files in ``migrations/versions``; None when a file says more than such a line
    can (a merge, a branch), and then Alembic reads them. Every command checks its database's
    revision: two lines a file spare it Alembic's script loader. Upgrades run through Alembic."""
    chain: dict[str, str | None] = {}
    for path in sorted((MIGRATIONS / "versions").glob("[!_]*.py")):
        source = path.read_text(encoding="utf-8")
        revisions, downs = _REVISION.findall(source), _DOWN_REVISION.findall(source)
        if len(revisions) != 1 or len(downs) != 1 or revisions[0] in chain:
            return None
        chain[revisions[0]] = downs[0] or None
    heads = set(chain) - set(chain.values())
    if len(heads) != 1 or any(down not in chain for down in chain.values() if down):
        return None
    return chain


def head_revision() -> str:
    """This code's newest schema revision."""
    chain = _revision_chain()
    if chain is not None:
        (head,) = set(chain) - set(chain.values())
        return head
    found = _scripts().get_current_head()
    assert found is not None, "arena/storage/migrations has no revision"
    return found


@cache
def known_revisions() -> frozenset[str]:
    """Every revision this code has (a database at another one is newer than the code)."""
    chain = _revision_chain()
    if chain is not None:
        return frozenset(chain)
    return frozenset(s.revision for s in _scripts().walk_revisions())


def read_status(conn: Connection) -> SchemaStatus:
    """The schema status seen on ``conn`` (reads only)."""
    tables = set(inspect(conn).get_table_names())
    revision = None
    if VERSION_TABLE in tables:
        revision = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    written_by = None
    if SchemaReleaseRow.__tablename__ in tables:
        written_by = conn.execute(
            select(SchemaReleaseRow.release).order_by(SchemaReleaseRow.id.desc()).limit(1)
        ).scalar()
    arena_tables = tables & set(Base.metadata.tables)
    return SchemaStatus(
        revision=revision,
        head=head_revision(),
        has_tables=bool(arena_tables),
        written_by=written_by,
    )


def schema_status(engine: Engine) -> SchemaStatus:
    """The database's schema status (reads only: an SQLite file is read through a plain
    connection, without the store's pragmas, so a refused file is left byte for byte)."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        with engine.connect() as conn:
            return read_status(conn)
    plain = create_engine(engine.url, poolclass=NullPool)
    try:
        with plain.connect() as conn:
            return read_status(conn)
    finally:
        plain.dispose()


def newer_error(status: SchemaStatus, where: str) -> InputError:
    """The refusal of a database written by a newer agent-arena."""
    writer = status.written_by or "a newer release"
    return InputError(
        f"{where}: written by agent-arena {writer}, this is {__version__}: upgrade "
        f"agent-arena to open it (the database is at schema revision {status.revision}, "
        f"which this release does not know; its newest is {status.head})"
    )


def older_error(status: SchemaStatus, where: str) -> InputError:
    """The refusal of an older database by a command that only reads."""
    return InputError(
        f"{where}: {status.describe()}; this is agent-arena {__version__} (schema revision "
        f"{status.head}): run `{UPGRADE_COMMAND}` with the same --db to upgrade it (an SQLite "
        "file is copied first); this command only reads and left the database unchanged"
    )


def prepare_schema(
    engine: Engine, writer: Engine, where: str, *, read_only: bool = False
) -> SchemaUpgrade | None:
    """Make the database usable by this code, or refuse it (see the module's docstring).

    Returns what an upgrade did (None when nothing was upgraded).
    """
    status = schema_status(engine)
    state = status.state
    if state == "current":
        return None
    if state == "ahead":
        raise newer_error(status, where)
    if state == "empty":
        _apply(writer, where)
        return None
    if read_only:
        raise older_error(status, where)
    return upgrade_schema(engine, writer, where)


def upgrade_schema(
    engine: Engine, writer: Engine, where: str, *, announce: bool = True
) -> SchemaUpgrade | None:
    """Upgrade the database to this code's revision: a backup copy of an SQLite file first,
    then every pending revision in one transaction (under the writers' lock). None when it was
    already current (or empty: then it is created). ``announce``: say what was done on
    stderr (a command that opened the database for other work)."""
    status = schema_status(engine)
    if status.state == "ahead":
        raise newer_error(status, where)
    if status.state in ("current", "empty"):
        _apply(writer, where)
        return None
    backup = backup_sqlite(engine, status)
    _apply(writer, where)
    done = SchemaUpgrade(from_revision=status.revision, to_revision=status.head, backup=backup)
    if announce:
        print(done.message(where), file=sys.stderr)
    return done


def _apply(writer: Engine, where: str) -> None:
    """Create (an empty database) or upgrade the schema in one locked write transaction;
    retried when a concurrent writer conflicts. A concurrent process that did it first leaves
    nothing to do."""
    for attempt in range(ATTEMPTS):
        try:
            with writer.begin() as conn:
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _ADVISORY_KEY})
                _apply_on(conn, where)
            return
        except DBAPIError as exc:
            message = str(exc.orig).lower()
            racing = "already exists" in message or "duplicate" in message or retryable(exc)
            if attempt + 1 >= ATTEMPTS or not racing:
                raise
        backoff(attempt)


def _stamp(conn: Connection, head: str) -> None:
    """Record a new database's revision as Alembic's ``stamp`` does: its version table (the
    same definition) holding ``head``."""
    _VERSIONS.create(conn)
    conn.execute(insert(_VERSIONS).values(version_num=head))


_VERSIONS = Table(
    VERSION_TABLE,
    MetaData(),
    Column("version_num", String(32), nullable=False),
    PrimaryKeyConstraint("version_num", name=f"{VERSION_TABLE}_pkc"),
)
"""Alembic's version table, as ``alembic.runtime.migration.MigrationContext`` defines it."""


def _apply_on(conn: Connection, where: str) -> None:
    status = read_status(conn)  # again, under the lock
    if status.state == "current":
        return
    if status.state == "ahead":
        raise newer_error(status, where)
    if status.state == "empty":
        Base.metadata.create_all(conn)
        _stamp(conn, status.head)
    else:
        from alembic import command

        command.upgrade(alembic_config(conn), status.head)
    conn.execute(
        insert(SchemaReleaseRow).values(
            revision=status.head, release=__version__, created_at=datetime.now(UTC)
        )
    )


def backup_sqlite(engine: Engine, status: SchemaStatus) -> str | None:
    """Copy an SQLite database file beside itself before an upgrade (SQLite's online backup:
    a consistent copy, WAL included); returns the copy's path (None: not an SQLite file)."""
    import sqlite3

    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        return None
    path = Path(database)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    before = status.revision or "unversioned"
    target = path.with_name(f"{path.name}.{before}-{stamp}.bak")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{before}-{stamp}-{n}.bak")
    raw = engine.raw_connection()
    try:
        copy = sqlite3.connect(target)
        try:
            raw.driver_connection.backup(copy)  # type: ignore[union-attr]
        finally:
            copy.close()
    finally:
        raw.close()
    return str(target)


def database_status(url: str | None = None) -> SchemaStatus:
    """The schema status of the database at ``url`` (``--db`` semantics; reads only, creates
    nothing: a missing SQLite file is an empty database)."""
    from arena.storage._engine import make_engine

    engine = make_engine(url)
    try:
        return schema_status(engine)
    finally:
        engine.dispose()


def upgrade_database(url: str | None = None) -> tuple[SchemaStatus, SchemaUpgrade | None]:
    """``arena db upgrade``: the database's status before, and what the upgrade did (None:
    it was current, or new and created). A newer database is refused (InputError)."""
    from arena.storage._engine import make_engine, resolve_url, safe_url, url_origin, write_engine

    engine = make_engine(url)
    where = f"{url_origin(url)} {safe_url(resolve_url(url))}"
    try:
        before = schema_status(engine)
        return before, upgrade_schema(engine, write_engine(engine), where, announce=False)
    finally:
        engine.dispose()

"""Database URL resolution and engine creation (SQLite by default, any SQLAlchemy URL).

A bad URL is bad input: :func:`check_url` raises :class:`~arena.errors.InputError` naming
``--db`` before anything is created or written (a missing folder, a path under a file or a
folder, an unknown dialect or driver, something that is not a URL); a file that is not an SQLite
database or a server that refuses the connection is reported the same way when the store opens
(:func:`open_error`; SQLite refuses such a file without writing to it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from arena.errors import EnvironmentFault, InputError, environment_fault

DEFAULT_URL = "sqlite:///arena.db"
# How long an SQLite writer waits for another process's write transaction, in seconds.
SQLITE_BUSY_TIMEOUT_S = 60.0
# Connections opened through this option write: on SQLite they begin with BEGIN IMMEDIATE.
WRITE_OPTION = "arena_write"
_EXAMPLES = "e.g. sqlite:///arena.db or postgresql+psycopg://user@host/dbname"


def resolve_url(url: str | None = None) -> str:
    """``url``, else $ARENA_DB_URL, else ``sqlite:///arena.db`` in the working directory."""
    return url or os.environ.get("ARENA_DB_URL") or DEFAULT_URL


def url_origin(url: str | None) -> str:
    """Where a URL came from, for error messages: ``--db``, ``$ARENA_DB_URL`` or the default."""
    if url:
        return "--db"
    return "--db ($ARENA_DB_URL)" if os.environ.get("ARENA_DB_URL") else "--db (default)"


def safe_url(url: str) -> str:
    """The URL with any password masked (for messages)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def db_error(url: str, origin: str, problem: str) -> InputError:
    """An InputError naming the flag and the (password-masked) URL."""
    return InputError(f"{origin} {safe_url(url)}: {problem}")


def check_url(url: str, origin: str = "--db") -> URL:
    """Parse and check a database URL without creating or writing anything."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise db_error(url, origin, f"not a database URL ({_EXAMPLES})") from None
    try:
        parsed.get_dialect()
    except NoSuchModuleError:
        raise db_error(
            url, origin, f"unknown database dialect {parsed.drivername!r} ({_EXAMPLES})"
        ) from None
    except ImportError as exc:
        raise db_error(
            url, origin, f"the driver for {parsed.drivername!r} is not installed ({exc})"
        ) from None
    if parsed.get_backend_name() == "sqlite":
        _check_sqlite_file(url, origin, parsed.database)
    return parsed


def _check_sqlite_file(url: str, origin: str, database: str | None) -> None:
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database).expanduser()
    if path.is_dir():
        raise db_error(url, origin, f"{path} is a folder, not an SQLite database file")
    if path.exists():
        # Never open() the file here: closing any descriptor of an SQLite file drops every
        # POSIX lock this process holds on it (another Store may have it open), which lets
        # another process's writes and ours overwrite each other. A file that is not a
        # database is reported by SQLite itself when the store opens (see open_error).
        return
    ancestor = path.absolute().parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise db_error(url, origin, f"{ancestor} is a file, so {path} cannot be created under it")
    if ancestor != path.absolute().parent:
        raise db_error(
            url, origin, f"folder {path.absolute().parent} does not exist (create it first)"
        )


def open_error(url: str, origin: str, exc: DBAPIError) -> InputError | EnvironmentFault:
    """The InputError for a database that could not be opened (first line of the cause), or
    the :class:`~arena.errors.EnvironmentFault` when the machine refused the write (a full
    disk, a file-size limit, a read-only file: exit 3, not bad input)."""
    parsed = make_url(url)
    sqlite = parsed.get_backend_name() == "sqlite" and parsed.database
    folder = str(Path(parsed.database or ".").expanduser().absolute().parent) if sqlite else None
    fault = environment_fault(exc, folder)
    if fault is not None:
        return EnvironmentFault(f"{origin} {safe_url(url)}: {fault}")
    problem = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
    parsed = make_url(url)
    if "file is not a database" in problem and parsed.get_backend_name() == "sqlite":
        return db_error(url, origin, f"{parsed.database} exists and is not an SQLite database")
    return db_error(url, origin, f"cannot open the database ({problem})")


def make_engine(url: str | None = None) -> Engine:
    """An engine for the URL (checked first, see :func:`check_url`).

    SQLite gets WAL mode (the app reads while a run writes), a busy timeout, foreign keys, and
    explicit transactions: writes (connections with the ``arena_write`` option) begin with
    ``BEGIN IMMEDIATE``, so two processes writing one file wait for each other instead of
    failing on a read-then-write upgrade.
    """
    resolved = resolve_url(url)
    origin = url_origin(url)
    parsed = check_url(resolved, origin)
    if parsed.get_backend_name() != "sqlite":
        try:
            return create_engine(resolved, pool_pre_ping=True)
        except ImportError as exc:
            raise db_error(
                resolved, origin, f"the database driver is not installed ({exc})"
            ) from None
    engine = create_engine(
        resolved, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_S}
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        # SQLAlchemy emits BEGIN itself (below), so pysqlite must not.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
        cursor.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit survives a killed process (not a power cut) without an
        # fsync per result.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def write_engine(engine: Engine) -> Engine:
    """The same engine, its connections marked as writers (BEGIN IMMEDIATE on SQLite)."""
    return engine.execution_options(**{WRITE_OPTION: True})

"""Database URL resolution and engine creation (SQLite by default, any SQLAlchemy URL)."""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import Engine, create_engine, event

DEFAULT_URL = "sqlite:///arena.db"


def resolve_url(url: str | None = None) -> str:
    """``url``, else $ARENA_DB_URL, else ``sqlite:///arena.db`` in the working directory."""
    return url or os.environ.get("ARENA_DB_URL") or DEFAULT_URL


def make_engine(url: str | None = None) -> Engine:
    """An engine for the URL; SQLite gets WAL mode so the app can read while a run writes."""
    resolved = resolve_url(url)
    if resolved.startswith("sqlite"):
        engine = create_engine(resolved, connect_args={"check_same_thread": False,
                                                       "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit survives a killed process (not a power cut) without an
            # fsync per result.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(resolved, pool_pre_ping=True)

"""Storage: SQLAlchemy 2.0 over SQLite by default or any URL (ARENA_DB_URL, --db)."""

from arena.storage.engine import DEFAULT_URL, make_engine, resolve_url
from arena.storage.store import Store

__all__ = ["DEFAULT_URL", "Store", "make_engine", "resolve_url"]

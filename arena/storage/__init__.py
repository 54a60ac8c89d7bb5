"""Storage: SQLAlchemy 2.0 over SQLite by default or any URL (ARENA_DB_URL, --db)."""

from arena.storage._engine import DEFAULT_URL, make_engine, resolve_url
from arena.storage._mutations import StoredMutation
from arena.storage._queries import DatabaseProblem, database_problem, masked_url
from arena.storage._store import Store

__all__ = [
    "DEFAULT_URL",
    "DatabaseProblem",
    "Store",
    "StoredMutation",
    "database_problem",
    "make_engine",
    "masked_url",
    "resolve_url",
]

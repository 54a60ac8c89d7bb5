"""Storage: SQLAlchemy 2.0 over SQLite by default or any URL (ARENA_DB_URL, --db)."""

from arena.storage._engine import DEFAULT_URL, make_engine, resolve_url
from arena.storage._mutations import StoredMutation
from arena.storage._queries import DatabaseProblem, database_problem, masked_url
from arena.storage._schema import (
    SchemaStatus,
    SchemaUpgrade,
    database_status,
    head_revision,
    upgrade_database,
)
from arena.storage._scores import ScoresReplaced
from arena.storage._store import Store

__all__ = [
    "DEFAULT_URL",
    "DatabaseProblem",
    "SchemaStatus",
    "SchemaUpgrade",
    "ScoresReplaced",
    "Store",
    "StoredMutation",
    "database_problem",
    "database_status",
    "head_revision",
    "make_engine",
    "masked_url",
    "resolve_url",
    "upgrade_database",
]

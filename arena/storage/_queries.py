"""Read-only checks for readers of an arena database (the app): nothing here creates or writes.

* :func:`database_problem` says why a URL holds no readable arena database (None when it
  does), without creating a missing SQLite file or the tables;
* :func:`masked_url` is the URL with its password hidden, safe to show.

Everything else a reader needs goes through :class:`arena.storage.Store` methods.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url

from arena.storage._tables import DatasetRow, ResultRow, RunRow

REQUIRED_TABLES = frozenset(
    {RunRow.__tablename__, ResultRow.__tablename__, DatasetRow.__tablename__}
)
"""Tables without which a database holds no arena runs."""

ProblemKind = Literal["bad_url", "missing", "folder", "empty", "unreadable", "no_tables"]


class DatabaseProblem(BaseModel):
    """Why a database URL cannot be read as an arena database."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ProblemKind
    path: str | None = None
    """The SQLite file, for ``missing``, ``folder`` and ``empty``."""
    detail: str = ""
    """The underlying error, for ``bad_url`` and ``unreadable``."""


def _sqlite_problem(database: str) -> DatabaseProblem | None:
    path = Path(database)
    if not path.exists():
        return DatabaseProblem(kind="missing", path=str(path))
    if path.is_dir():
        return DatabaseProblem(kind="folder", path=str(path))
    if path.stat().st_size == 0:
        return DatabaseProblem(kind="empty", path=str(path))
    return None


def database_problem(url: str) -> DatabaseProblem | None:
    """Why ``url`` holds no readable arena database, or None when it does.

    Never creates or modifies anything: a missing SQLite file is reported, not created, and
    the check opens a plain connection (no WAL pragma, no table creation).
    """
    try:
        parsed = make_url(url)
    except Exception as exc:  # any malformed URL is a problem, never a crash
        return DatabaseProblem(kind="bad_url", detail=str(exc))
    if parsed.drivername.startswith("sqlite") and parsed.database not in (None, "", ":memory:"):
        problem = _sqlite_problem(str(parsed.database))
        if problem is not None:
            return problem
    try:
        engine = create_engine(parsed)
    except Exception as exc:  # e.g. an unknown dialect or a missing driver
        return DatabaseProblem(kind="unreadable", detail=f"{type(exc).__name__}: {exc}")
    try:
        tables = set(inspect(engine).get_table_names())
    except Exception as exc:  # unreadable: report, never crash
        return DatabaseProblem(kind="unreadable", detail=f"{type(exc).__name__}: {exc}")
    finally:
        engine.dispose()
    if not REQUIRED_TABLES.issubset(tables):
        return DatabaseProblem(kind="no_tables")
    return None


def masked_url(url: str) -> str:
    """The URL with its password hidden (as given when it is not a URL)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL: show it as given
        return url

"""Writes that are safe when several processes share one database (SQLite or PostgreSQL).

* Tables are created or upgraded under a lock (``BEGIN IMMEDIATE`` on SQLite, an advisory
  lock on PostgreSQL) and retried, so a "table already exists" race cannot crash a run
  (:mod:`arena.storage._schema`).
* Inserts of rows identified by a unique key are ``INSERT ... ON CONFLICT DO NOTHING`` (or
  ``DO UPDATE`` for caches); other dialects fall back to a savepoint and an IntegrityError.
* Every write transaction is retried when a concurrent writer wins a race (a unique conflict,
  a deadlock, a serialization failure, a busy SQLite file).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, insert, inspect, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from arena.storage._tables import Base

T = TypeVar("T")
ATTEMPTS = 8
_TRANSIENT_WORDS = ("locked", "deadlock", "serializ", "busy", "could not obtain lock")


def retryable(exc: BaseException) -> bool:
    """A conflict with a concurrent writer: worth running the transaction again."""
    if isinstance(exc, IntegrityError):
        return True
    if isinstance(exc, OperationalError):
        return any(word in str(exc.orig).lower() for word in _TRANSIENT_WORDS)
    return False


def backoff(attempt: int) -> None:
    """A short randomised pause before attempt ``attempt + 1``."""
    time.sleep(min(1.0, 0.02 * 2**attempt) * (0.5 + random.random()))


def run_write(make_session: Callable[[], Session], work: Callable[[Session], T]) -> T:
    """Run ``work`` in a transaction and commit; rerun it when a concurrent writer conflicts."""
    for attempt in range(ATTEMPTS):
        with make_session() as session:
            try:
                value = work(session)
                session.commit()
                return value
            except (IntegrityError, OperationalError) as exc:
                session.rollback()
                if attempt + 1 >= ATTEMPTS or not retryable(exc):
                    raise
        backoff(attempt)
    raise AssertionError("unreachable")


def run_core_write(engine: Engine, work: Callable[[Connection], T]) -> T:
    """:func:`run_write` for SQLAlchemy Core: ``work`` runs on a connection of ``engine`` in one
    transaction, committed, and is rerun when a concurrent writer conflicts. Cheaper than an
    ORM session for single statements (the response cache's writes)."""
    for attempt in range(ATTEMPTS):
        try:
            with engine.begin() as conn:
                return work(conn)
        except (IntegrityError, OperationalError) as exc:
            if attempt + 1 >= ATTEMPTS or not retryable(exc):
                raise
        backoff(attempt)
    raise AssertionError("unreachable")


def _dialect_insert(session: Session, model: type[Base]) -> Any:
    name = session.get_bind().dialect.name
    if name == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(model)
    if name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(model)
    return None


def insert_ignore(
    session: Session, model: type[Base], values: dict[str, Any], keys: Iterable[str]
) -> bool:
    """Insert a row unless one with the same unique ``keys`` exists; True if inserted."""
    stmt = _dialect_insert(session, model)
    if stmt is not None:
        # RETURNING, not rowcount: drivers may report -1 for an ignored row.
        stmt = (
            stmt.values(**values)
            .on_conflict_do_nothing(index_elements=list(keys))
            .returning(*inspect(model).primary_key)
        )
        return session.execute(stmt).first() is not None
    try:
        with session.begin_nested():
            session.execute(insert(model).values(**values))
        return True
    except IntegrityError:
        return False


def upsert(
    session: Session, model: type[Base], values: dict[str, Any], keys: Iterable[str]
) -> None:
    """Insert a row, or update the one with the same unique ``keys`` to ``values``."""
    keys = list(keys)
    changes = {k: v for k, v in values.items() if k not in keys}
    stmt = _dialect_insert(session, model)
    if stmt is not None:
        stmt = stmt.values(**values)
        stmt = stmt.on_conflict_do_update(
            index_elements=keys, set_={k: stmt.excluded[k] for k in changes}
        )
        session.execute(stmt)
        return
    if not insert_ignore(session, model, values, keys):
        table = model.__table__
        where = [table.c[k] == values[k] for k in keys]
        session.execute(update(model).where(*where).values(**changes))

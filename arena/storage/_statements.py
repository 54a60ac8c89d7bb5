"""Prebuilt SQLAlchemy Core statements for the runner's hot paths.

A suite run reads and writes the response cache for every model call and looks up and stores a
result for every task. Built once per dialect with bound parameters, these statements skip the
ORM session and the per-call statement construction, and store exactly the same rows (the
tables' own column types serialise the JSON and timestamps).
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from sqlalchemy import Executable, Table, bindparam, delete, select

from arena.storage._tables import (
    DialogueRow,
    EndStateRow,
    NodePathRow,
    NodeStatesRow,
    ResponseCacheRow,
    ResultRow,
    RunFactsRow,
    StepRow,
)

_CACHE = cast(Table, ResponseCacheRow.__table__)
_RESULTS = cast(Table, ResultRow.__table__)
_STEPS = cast(Table, StepRow.__table__)
_DIALOGUES = cast(Table, DialogueRow.__table__)
_NODE_PATHS = cast(Table, NodePathRow.__table__)
_RUN_FACTS = cast(Table, RunFactsRow.__table__)
_NODE_STATES = cast(Table, NodeStatesRow.__table__)
_END_STATES = cast(Table, EndStateRow.__table__)
RESULT_KEY = ("run_id", "variant_hash", "case_hash", "repeat")
"""The unique key of a stored result."""
UPSERT_DIALECTS = ("sqlite", "postgresql")
"""Dialects with ``INSERT ... ON CONFLICT``; others take the ORM path of the Store."""


@cache
def cache_get() -> Executable:
    """The cached reply under ``:key``."""
    return select(_CACHE.c.value).where(_CACHE.c.key == bindparam("key"))


def _insert(dialect: str, table: Table) -> Any:
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:
        from sqlalchemy.dialects.postgresql import insert  # type: ignore[assignment]
    return insert(table)


@cache
def cache_put(dialect: str) -> Executable:
    """Insert a reply (``key``, ``model``, ``value``, ``created_at``), replacing any older one."""
    stmt = _insert(dialect, _CACHE)
    return stmt.on_conflict_do_update(
        index_elements=["key"],
        set_={name: stmt.excluded[name] for name in ("model", "value", "created_at")},
    )


@cache
def cache_delete() -> Executable:
    """Forget the reply under ``:key``."""
    return delete(_CACHE).where(_CACHE.c.key == bindparam("key"))


@cache
def finished_result_id() -> Executable:
    """The id of the result without error under ``:run_id``, ``:variant_hash``,
    ``:case_hash``, ``:repeat`` (one cheap indexed lookup before loading it whole)."""
    return select(_RESULTS.c.id).where(
        _RESULTS.c.run_id == bindparam("run_id"),
        _RESULTS.c.variant_hash == bindparam("variant_hash"),
        _RESULTS.c.case_hash == bindparam("case_hash"),
        _RESULTS.c.repeat == bindparam("repeat"),
        _RESULTS.c.error.is_(None),
    )


def result_params(run_id: int, key: tuple[str, str, int]) -> dict[str, Any]:
    """Parameters of :func:`finished_result_id` for a result key."""
    variant_hash, case_hash, repeat = key
    return {
        "run_id": run_id,
        "variant_hash": variant_hash,
        "case_hash": case_hash,
        "repeat": repeat,
    }


@cache
def result_insert(dialect: str) -> Executable:
    """Insert a result row (every column but ``id``) unless its key exists; returns its id,
    no row when it existed."""
    return (
        _insert(dialect, _RESULTS)
        .on_conflict_do_nothing(index_elements=list(RESULT_KEY))
        .returning(_RESULTS.c.id)
    )


@cache
def steps_insert() -> Executable:
    """Insert trajectory steps (executemany)."""
    return _STEPS.insert()


@cache
def dialogue_insert() -> Executable:
    """Insert a result's dialogue (``result_id``, ``body``)."""
    return _DIALOGUES.insert()


@cache
def node_path_insert() -> Executable:
    """Insert a result's node path (``result_id``, ``body``)."""
    return _NODE_PATHS.insert()


@cache
def run_facts_insert() -> Executable:
    """Insert a result's replies and side-effecting tools (``result_id``, ``body``)."""
    return _RUN_FACTS.insert()


@cache
def node_states_insert() -> Executable:
    """Insert a failed result's states after each superstep (``result_id``, ``body``)."""
    return _NODE_STATES.insert()


@cache
def end_state_insert() -> Executable:
    """Insert what a result's run changed in its agent's state (``result_id``, ``body``)."""
    return _END_STATES.insert()

"""Storing one result: first finished result wins; an errored one is replaced atomically."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel
from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from arena.records.results import RunResult, utcnow
from arena.secrets import scrub
from arena.storage import _statements as statements
from arena.storage._tables import (
    UNKNOWN_COST,
    BattleRow,
    DialogueRow,
    EndStateRow,
    NodePathRow,
    NodeStatesRow,
    ResultRow,
    RunFactsRow,
    ScoreRow,
    StepRow,
)
from arena.storage._writes import insert_ignore

_KEY = statements.RESULT_KEY


def _existing(s: Session, result: RunResult) -> ResultRow | None:
    return s.scalar(
        select(ResultRow)
        .where(
            ResultRow.run_id == result.run_id,
            ResultRow.variant_hash == result.variant_hash,
            ResultRow.case_hash == result.case_hash,
            ResultRow.repeat == result.repeat,
        )
        .with_for_update()
    )


def _add_steps(s: Session, result_id: int, result: RunResult) -> None:
    """Insert the result's trajectory steps, its dialogue, node path, states and state
    diff, if any."""
    # One Core executemany: the ORM's unit of work cost more than the rows themselves.
    if result.steps:
        rows = [{"result_id": result_id, **step.model_dump()} for step in result.steps]
        s.execute(statements.steps_insert(), rows)
    if result.dialogue is not None:
        s.execute(
            statements.dialogue_insert(),
            {"result_id": result_id, "body": result.dialogue.model_dump(mode="json")},
        )
    if result.nodes is not None:
        s.execute(
            statements.node_path_insert(),
            {"result_id": result_id, "body": result.nodes.model_dump(mode="json")},
        )
    facts = result.model_dump(mode="json", include={"replies", "side_effecting"})
    if facts:
        s.execute(statements.run_facts_insert(), {"result_id": result_id, "body": facts})
    if result.states is not None:
        s.execute(
            statements.node_states_insert(),
            {"result_id": result_id, "body": result.states.model_dump(mode="json")},
        )
    if result.end_state is not None:
        s.execute(
            statements.end_state_insert(),
            {"result_id": result_id, "body": result.end_state.model_dump(mode="json")},
        )


def _insert_new(s: Session, data: dict[str, object]) -> int | None:
    """Insert the result row unless its key exists; its id, or None if it existed."""
    dialect = s.get_bind().dialect.name
    if dialect not in statements.UPSERT_DIALECTS:
        return _id_of(s, data) if insert_ignore(s, ResultRow, data, _KEY) else None
    new_id: int | None = s.execute(statements.result_insert(dialect), data).scalar()
    return new_id


def _id_of(s: Session, data: dict[str, object]) -> int | None:
    return s.scalar(select(ResultRow.id).where(*(getattr(ResultRow, k) == data[k] for k in _KEY)))


M = TypeVar("M", bound=BaseModel)


def scrubbed(record: M) -> M:
    """``record`` with keys, tokens and credentials taken out of every string of it
    (:func:`arena.secrets.scrub`, dict keys included); the same object when there were none."""
    data = record.model_dump(mode="json")
    clean = scrub(data)
    return record if clean == data else type(record).model_validate(clean)


def replace_result(s: Session, result: RunResult) -> int:
    """Insert ``result`` in the open write transaction ``s``; return the stored row's id.

    * no stored result for its key: insert it (a concurrent insert makes this a conflict-free
      no-op, and the rules below apply to the row that won);
    * a stored result without error: keep it (finished work is never replaced or duplicated);
    * a stored result with an error: update that row in place (same id) with the new result
      and trajectory, and delete the scores and battles of the old output.
    """
    data = result.model_dump(
        exclude={
            "id",
            "steps",
            "dialogue",
            "nodes",
            "states",
            "end_state",
            "replies",
            "side_effecting",
        }
    )
    if data["cost_usd"] is None:
        data["cost_usd"] = UNKNOWN_COST  # unknown, never $0
    new_id = _insert_new(s, {**data, "created_at": utcnow()})
    if new_id is not None:  # the usual case: no result for this key yet
        _add_steps(s, new_id, result)
        return new_id
    row = _existing(s, result)  # a concurrent insert won, or it was stored before
    assert row is not None
    if row.error is None:
        return row.id
    s.execute(delete(ScoreRow).where(ScoreRow.result_id == row.id))
    s.execute(
        delete(BattleRow).where(
            or_(BattleRow.result_a_id == row.id, BattleRow.result_b_id == row.id)
        )
    )
    s.execute(delete(StepRow).where(StepRow.result_id == row.id))
    s.execute(delete(DialogueRow).where(DialogueRow.result_id == row.id))
    s.execute(delete(NodePathRow).where(NodePathRow.result_id == row.id))
    s.execute(delete(RunFactsRow).where(RunFactsRow.result_id == row.id))
    s.execute(delete(NodeStatesRow).where(NodeStatesRow.result_id == row.id))
    s.execute(delete(EndStateRow).where(EndStateRow.result_id == row.id))
    for name, value in data.items():
        setattr(row, name, value)
    row.created_at = utcnow()
    s.flush()
    s.expire(row, ["steps", "dialogue", "node_path", "facts", "node_states", "end_state"])
    _add_steps(s, row.id, result)
    return row.id

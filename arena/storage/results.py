"""Storing one result: first finished result wins; an errored one is replaced atomically."""

from __future__ import annotations

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from arena.records import RunResult, utcnow
from arena.storage.tables import BattleRow, ResultRow, ScoreRow, StepRow
from arena.storage.writes import insert_ignore

_KEY = ("run_id", "variant_hash", "case_hash", "repeat")


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
    for step in result.steps:
        s.add(StepRow(result_id=result_id, **step.model_dump()))


def replace_result(s: Session, result: RunResult) -> int:
    """Insert ``result`` in the open write transaction ``s``; return the stored row's id.

    * no stored result for its key: insert it (a concurrent insert makes this a conflict-free
      no-op, and the rules below apply to the row that won);
    * a stored result without error: keep it (finished work is never replaced or duplicated);
    * a stored result with an error: update that row in place (same id) with the new result
      and trajectory, and delete the scores and battles of the old output.
    """
    data = result.model_dump(exclude={"id", "steps"})
    row = _existing(s, result)
    if row is None:
        if insert_ignore(s, ResultRow, {**data, "created_at": utcnow()}, _KEY):
            row = _existing(s, result)
            assert row is not None
            _add_steps(s, row.id, result)
            return row.id
        row = _existing(s, result)
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
    for name, value in data.items():
        setattr(row, name, value)
    row.created_at = utcnow()
    s.flush()
    s.expire(row, ["steps"])
    _add_steps(s, row.id, result)
    return row.id

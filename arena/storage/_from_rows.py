"""Stored rows as records: results with their trajectories, and runs."""

from __future__ import annotations

from datetime import UTC, datetime

from arena.records.dialogue import Dialogue
from arena.records.end_state import StateDiff
from arena.records.graph_path import NodePath
from arena.records.graph_state import GraphStates
from arena.records.results import RunInfo, RunResult, TrajectoryStep
from arena.storage._tables import DatasetRow, ResultRow, RunRow


def _states(row: ResultRow) -> GraphStates | None:
    """A result's stored states after each superstep (one query, on demand)."""
    return None if row.node_states is None else GraphStates.model_validate(row.node_states.body)


def result_record(row: ResultRow, *, with_states: bool = False) -> RunResult:
    """The record of a stored result, with its trajectory (and, ``with_states``, a failed
    graph run's states after each superstep)."""
    steps = [
        TrajectoryStep(
            index=st.index,
            agent=st.agent,
            tool=st.tool,
            args=st.args,
            observation=st.observation,
            error=st.error,
        )
        for st in row.steps
    ]
    return RunResult(
        id=row.id,
        run_id=row.run_id,
        variant=row.variant,
        variant_hash=row.variant_hash,
        case_id=row.case_id,
        case_hash=row.case_hash,
        repeat=row.repeat,
        output=row.output,
        steps=steps,
        model_calls=row.model_calls,
        fresh_model_calls=row.fresh_model_calls,
        latency_s=row.latency_s,
        input_tokens=row.input_tokens,
        output_tokens=row.output_tokens,
        cost_usd=None if row.cost_usd < 0 else row.cost_usd,  # UNKNOWN_COST
        error=row.error,
        files=row.files or {},
        dialogue=None if row.dialogue is None else Dialogue.model_validate(row.dialogue.body),
        nodes=None if row.node_path is None else NodePath.model_validate(row.node_path.body),
        states=_states(row) if with_states else None,
        end_state=None if row.end_state is None else StateDiff.model_validate(row.end_state.body),
        **(row.facts.body if row.facts is not None else {}),
        created_at=aware(row.created_at),
    )


def aware(value: datetime) -> datetime:
    """``value`` with UTC attached when the database returned it naive (SQLite)."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def run_info(run: RunRow, ds: DatasetRow, results: int, errors: int) -> RunInfo:
    """The record of a stored run, with its dataset and result counts."""
    return RunInfo(
        id=run.id,
        key=run.key,
        dataset=ds.name,
        dataset_version=ds.version,
        config=run.config,
        status=run.status,
        created_at=aware(run.created_at),
        finished_at=aware(run.finished_at) if run.finished_at else None,
        results=results,
        errors=errors,
    )

"""Stored shadow runs read back (the app's shadow view): the candidate's win rate against
production per run, and the traces it lost, both answers side by side. Never calls a model.

A shadow run's ``shadow`` config block names its traces source and candidate; the runs of one
candidate on one source, oldest first, are its history: one point per run, each with the 95%
interval ``arena shadow`` reports.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from arena.battles import Battle
from arena.production._replay import PRODUCTION
from arena.production._shadow import ShadowLoss, candidate_score, win_rate_of
from arena.storage import Store


class ShadowPoint(BaseModel):
    """One shadow run of a candidate: its win rate against production and the interval."""

    run_id: int
    created_at: datetime
    candidate: str
    traces: str
    judge: str | None
    battles: int
    win_rate: float | None
    interval: tuple[float, float] | None


def shadow_block(store: Store, run_id: int) -> dict[str, object] | None:
    """The ``shadow`` block of the run's config (None: not a shadow run)."""
    found = store.run(run_id).config.get("shadow")
    return found if isinstance(found, dict) else None


def _battles(store: Store, run_id: int, judge_key: str | None) -> list[Battle]:
    """The run's battles by ``judge_key`` when it judged the run, else its latest judge."""
    from arena.leaderboard import select_battles

    known = {key for key, _, _ in store.judge_keys(run_id)}
    return select_battles(store, run_id, judge_key if judge_key in known else None)


def shadow_point(store: Store, run_id: int, judge_key: str | None = None) -> ShadowPoint | None:
    """The run's win rate and interval (None: not a shadow run with a candidate)."""
    block = shadow_block(store, run_id)
    candidate = block.get("candidate") if block else None
    if block is None or not isinstance(candidate, str):
        return None
    battles = _battles(store, run_id, judge_key)
    scored, win_rate, interval = win_rate_of(battles, candidate)
    return ShadowPoint(
        run_id=run_id,
        created_at=store.run(run_id).created_at,
        candidate=candidate,
        traces=str(block.get("traces", "")),
        judge=battles[0].judge.key if battles else None,
        battles=len(scored),
        win_rate=win_rate,
        interval=interval,
    )


def shadow_history(store: Store, run_id: int, judge_key: str | None = None) -> list[ShadowPoint]:
    """Every shadow run of the run's candidate on the same traces source, oldest first
    (empty: ``run_id`` is not a shadow run with a candidate)."""
    this = shadow_point(store, run_id, judge_key)
    if this is None:
        return []
    points = []
    for run in sorted(store.runs(), key=lambda r: r.id):
        block = run.config.get("shadow")
        if not isinstance(block, dict) or block.get("candidate") != this.candidate:
            continue
        if str(block.get("traces", "")) == this.traces:
            point = this if run.id == run_id else shadow_point(store, run.id, judge_key)
            if point is not None:
                points.append(point)
    return points


def shadow_losses(store: Store, run_id: int, judge_key: str | None = None) -> list[ShadowLoss]:
    """The traces the candidate lost in the run, in sampling order, production's and the
    candidate's answers side by side (empty: not a shadow run with a candidate)."""
    block = shadow_block(store, run_id)
    candidate = block.get("candidate") if block else None
    if block is None or not isinstance(candidate, str):
        return []
    trace_ids = block.get("trace_ids")
    ids = trace_ids if isinstance(trace_ids, dict) else {}
    queries = {c.id: c.input for c in store.run_dataset(run_id).test_cases}
    results = store.results(run_id)
    outputs = {r.id: r.output for r in results}
    production = {r.case_id: r.output for r in results if r.variant == PRODUCTION}
    order = {case_id: i for i, case_id in enumerate(ids)}  # sampling order
    lost = [b for b in _battles(store, run_id, judge_key) if candidate_score(b, candidate) == 0]
    lost.sort(key=lambda b: (order.get(b.case_id, len(order)), b.repeat))
    losses = []
    for battle in lost:
        mine = battle.result_a_id if battle.variant_a == candidate else battle.result_b_id
        losses.append(
            ShadowLoss(
                trace_id=str(ids.get(battle.case_id, battle.case_id)),
                case_id=battle.case_id,
                query=str(queries.get(battle.case_id, "")),
                production=production.get(battle.case_id, ""),
                candidate=outputs.get(mine, ""),
                flip=battle.flip,
            )
        )
    return losses

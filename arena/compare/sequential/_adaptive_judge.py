"""``arena judge --pairs adaptive``: judge the (pair, case) that most reduces the uncertainty of
the top-k ranking, one battle at a time, until the top k are separated or the budget is spent.

The choice of the next pair and the stop are :class:`arena.sequential.AdaptiveLoop`'s (the
least separated pair across the top-k boundary, or once its cases are used up the pair that
best informs it; the same loop ``benchmarks/sequential_bench.py`` measures); its case is a
seeded random one not yet judged for that pair.
Battles are judged in both orders and stored like ``arena judge``'s (verdicts cached), so a
rerun resumes from the stored battles and ``arena ratings`` rates them as usual: the
Bradley-Terry likelihood does not depend on how the pairs were chosen from past outcomes,
and the bootstrap resamples the battles actually observed.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel

from arena.sequential import AdaptiveLoop, AdaptiveState, ranks_separated
from arena.vocabulary import ERROR, WINNER_SCORE

if TYPE_CHECKING:
    from arena.records.results import RunResult
    from arena.storage import Store
    from judges import JudgeSpec


class AdaptiveReport(BaseModel):
    """What adaptive judging did and why it stopped."""

    run_id: int
    judge_key: str
    top_k: int
    alpha: float
    battles: int
    """Battles stored for this judge on the run (the ones judged now included)."""
    judged_now: int
    errors: int
    model_calls: int
    all_pairs: int
    """Battles the all-pairs design would judge on this run."""
    separated: bool
    stopped_because: str
    ranking: list[str]


def _slots(
    store: Store, run_id: int, margin: float | None
) -> tuple[list[str], dict[tuple[int, int], list[Any]]]:
    """The run's variants and, per variant pair (i < j), its (case, a, b) slots: the pairs
    :func:`~arena.battles.judgeable_pairs` would battle (a slot where an answer crashed is
    one too: the crash rule decides it, without a call), each with the judge's provisional
    tie ``margin``."""
    from arena.battles._pairing import BATTLE_FATES, judgeable_pairs
    from arena.battles._runner import _Pair

    dataset = store.run_dataset(run_id)
    cases = {c.id: c for c in dataset.test_cases}
    variants = list(store.run(run_id).config.get("variants", {}))
    index = {name: i for i, name in enumerate(variants)}
    by_slot: dict[tuple[str, int], dict[str, RunResult]] = {}
    for result in store.results(run_id):
        if result.variant in index:
            by_slot.setdefault((result.case_id, result.repeat), {})[result.variant] = result
    slots = [
        (cases[case_id], repeat, answers) for (case_id, repeat), answers in sorted(by_slot.items())
    ]
    pairs: dict[tuple[int, int], list[Any]] = {}
    for pair in judgeable_pairs(slots, variants) if len(variants) > 1 else []:
        if pair.fate in BATTLE_FATES and pair.a is not None and pair.b is not None:
            key = (index[pair.a.variant], index[pair.b.variant])
            pairs.setdefault(key, []).append(
                _Pair(pair.case, pair.a, pair.b, dataset.judge, margin=margin)
            )
    return variants, pairs


def judge_adaptive(
    store: Store,
    run_id: int,
    spec: JudgeSpec,
    *,
    budget: int | None = None,
    top_k: int = 1,
    alpha: float = 0.05,
    seed: int = 0,
) -> AdaptiveReport:
    """Judge adaptively (module docstring); ``budget`` caps the battles judged now."""
    return asyncio.run(_judge(store, run_id, spec, budget, top_k, alpha, seed))


async def _judge(
    store: Store,
    run_id: int,
    spec: JudgeSpec,
    budget: int | None,
    top_k: int,
    alpha: float,
    seed: int,
) -> AdaptiveReport:
    from arena.battles._runner import calibrate_run, provisional_margin
    from arena.errors import InputError
    from arena.executors import LocalExecutor
    from judges import PairwiseJudge

    variants, slots = _slots(store, run_id, provisional_margin(spec))
    if not 1 <= top_k < len(variants):
        raise InputError(f"--top must be between 1 and {len(variants) - 1}", field="--top")
    judge, executor = PairwiseJudge(spec, store=store), LocalExecutor()
    rng = np.random.default_rng(seed)
    todo = {key: [slots[key][i] for i in rng.permutation(len(slots[key]))] for key in slots}
    state = AdaptiveState(len(variants))
    index = {name: i for i, name in enumerate(variants)}
    done = {(b.result_a_id, b.result_b_id) for b in store.battles(run_id, spec.key)}
    for battle in store.battles(run_id, spec.key):  # resume: what is stored counts
        if battle.winner != ERROR and battle.variant_a in index and battle.variant_b in index:
            state.add(index[battle.variant_a], index[battle.variant_b], WINNER_SCORE[battle.winner])
    for key in todo:
        todo[key] = [p for p in todo[key] if (p.a.id, p.b.id) not in done]
    loop = AdaptiveLoop(
        state, {key: len(v) for key, v in todo.items()}, top_k=top_k, alpha=alpha, budget=budget
    )
    errors = calls = 0
    while (pick := loop.next()) is not None:
        pair = todo[pick].pop()
        outcome = await executor.judge_pair(store, run_id, judge, pair, set())
        if outcome is None or outcome.battle.winner == ERROR:
            errors += outcome is not None
            calls += outcome.calls if outcome is not None else 0
            loop.record(pick, None)
            continue
        calls += outcome.calls
        battle = outcome.battle
        first, second = index[battle.variant_a], index[battle.variant_b]
        loop.record((first, second), WINNER_SCORE[battle.winner])
    calibrate_run(store, run_id, spec)
    theta, _ = state.fit()
    return AdaptiveReport(
        run_id=run_id,
        judge_key=spec.key,
        top_k=top_k,
        alpha=alpha,
        battles=state.battles,
        judged_now=loop.judged,
        errors=errors,
        model_calls=calls,
        all_pairs=sum(len(v) for v in slots.values()),
        separated=loop.separated or ranks_separated(state, top_k, alpha),
        stopped_because=loop.reason,
        ranking=[variants[i] for i in np.argsort(-theta, kind="stable")],
    )

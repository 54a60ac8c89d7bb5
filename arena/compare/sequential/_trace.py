"""A stored run's paired outcomes in the sequential order, and their confidence sequence.

The outcome of a case is the candidate's share of the win over the baseline in [0, 1]: from
the judge's battles (a win 1, a tie 0.5, a loss 0; averaged over repeats), or, with no judge,
from the golden scores (``(candidate - baseline + 1) / 2``). The order is a seeded random
permutation of the run's cases, so the driver, a resumed run and the app see the same
sequence.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from pydantic import BaseModel

from arena.vocabulary import ERROR, WINNER_SCORE

if TYPE_CHECKING:
    from arena.scoring import CaseScore
    from arena.storage import Store


class Point(BaseModel):
    """The confidence sequence after one more case."""

    n: int
    case_id: str
    outcome: float
    mean: float
    lower: float
    upper: float


def case_order(case_ids: Iterable[str], seed: int) -> list[str]:
    """The cases in the seeded random order (independent of the order they were given)."""
    ids = sorted(set(case_ids))
    return [ids[i] for i in np.random.default_rng(seed).permutation(len(ids))]


def judged_outcomes(
    store: Store, run_id: int, baseline: str, candidate: str, judge_key: str
) -> dict[str, float]:
    """Case id -> the candidate's mean win share in the judge's battles (errors left out)."""
    shares: dict[str, list[float]] = defaultdict(list)
    for battle in store.battles(run_id, judge_key):
        if {battle.variant_a, battle.variant_b} != {baseline, candidate}:
            continue
        if battle.winner == ERROR:
            continue
        score = WINNER_SCORE[battle.winner]
        shares[battle.case_id].append(score if battle.variant_a == candidate else 1 - score)
    return {case: float(np.mean(values)) for case, values in shares.items()}


def score_snapshot(store: Store, run_id: int) -> list[CaseScore]:
    """The run's golden scores, loaded once: what one look of a sequential comparison reads
    (its critical cases, its outcomes without a judge, whether they are stochastic)."""
    from arena.evaluation.run_scores import load_run_scores

    return load_run_scores(store, run_id).cases


def _scores(store: Store, run_id: int, scores: Sequence[CaseScore] | None) -> Sequence[CaseScore]:
    return score_snapshot(store, run_id) if scores is None else scores


def _agent_result(score: CaseScore) -> bool:
    """Neither the agent failed (an error) nor the simulated user (a simulator error)."""
    return score.error is None and score.simulator_error is None


def golden_outcomes(
    store: Store,
    run_id: int,
    baseline: str,
    candidate: str,
    scores: Sequence[CaseScore] | None = None,
) -> dict[str, float]:
    """Case id -> ``(candidate score - baseline score + 1) / 2`` over repeats (no judge);
    ``scores``: the run's :func:`score_snapshot`, loaded when not given."""
    by: dict[tuple[str, str], list[float]] = defaultdict(list)
    for score in _scores(store, run_id, scores):
        if _agent_result(score) and score.variant in (baseline, candidate):
            by[(score.variant, score.case_id)].append(score.score)
    cases = {case for variant, case in by if variant == candidate}
    return {
        case: (float(np.mean(by[(candidate, case)])) - float(np.mean(by[(baseline, case)])) + 1) / 2
        for case in cases
        if (baseline, case) in by
    }


def critical_passes(
    store: Store,
    run_id: int,
    baseline: str,
    candidate: str,
    cases: set[str],
    scores: Sequence[CaseScore] | None = None,
) -> dict[str, tuple[int, int, int, int]]:
    """Critical case id (of ``cases``) -> (baseline passes, its repeats, candidate passes,
    its repeats), over the scored results (errors count as failures, simulator errors not at
    all); ``scores``: the run's :func:`score_snapshot`, loaded when not given."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for score in _scores(store, run_id, scores):
        if score.case_id in cases and score.tier == "critical" and score.simulator_error is None:
            tally = counts[(score.variant, score.case_id)]
            tally[0] += int(score.passed)
            tally[1] += 1
    return {
        case: (*counts[(baseline, case)], *counts[(candidate, case)])  # type: ignore[misc]
        for case in sorted(cases)
        if (baseline, case) in counts and (candidate, case) in counts
    }


def stochastic_cases(
    store: Store,
    run_id: int,
    baseline: str,
    candidate: str,
    judge_key: str | None,
    scores: Sequence[CaseScore] | None = None,
) -> dict[str, str]:
    """Case id -> why its outcome is not one fixed number: a variant's repeats disagree, or
    the judge's two orders (or its repeats) disagree; ``scores``: the run's
    :func:`score_snapshot`, loaded when not given."""
    why: dict[str, str] = {}
    repeats: dict[tuple[str, str], set[float]] = defaultdict(set)
    for score in _scores(store, run_id, scores):
        if _agent_result(score) and score.variant in (baseline, candidate):
            repeats[(score.variant, score.case_id)].add(round(score.score, 9))
    for (variant, case), values in repeats.items():
        if len(values) > 1:
            why.setdefault(case, f"the repeats of {variant} score differently")
    if judge_key is None:
        return why
    shares: dict[str, set[float]] = defaultdict(set)
    for battle in store.battles(run_id, judge_key):
        if {battle.variant_a, battle.variant_b} != {baseline, candidate}:
            continue
        if battle.winner == ERROR:
            continue
        if battle.flip:
            why.setdefault(battle.case_id, "the judge's two orders disagree")
        won = WINNER_SCORE[battle.winner]
        shares[battle.case_id].add(won if battle.variant_a == candidate else 1 - won)
    for case, seen in shares.items():
        if len(seen) > 1:
            why.setdefault(case, "the judge's verdicts differ between repeats")
    return why


def confidence_trace(
    outcomes: list[tuple[str, float]],
    alpha: float = 0.05,
    population: int | None = None,
    horizon: int | None = None,
) -> list[Point]:
    """The betting confidence sequence after each (case id, outcome), in the order given
    (``horizon``: what the driver used, half the case budget)."""
    from arena.sequential import BettingCS

    cs = BettingCS(alpha, population=population, horizon=horizon)
    points = []
    for n, (case_id, outcome) in enumerate(outcomes, start=1):
        cs.update([outcome])
        low, high = cs.bounds()
        points.append(
            Point(
                n=n,
                case_id=case_id,
                outcome=outcome,
                mean=float(cs.mean()[0]),
                lower=float(low[0]),
                upper=float(high[0]),
            )
        )
    return points

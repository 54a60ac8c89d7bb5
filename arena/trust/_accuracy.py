"""Judge accuracy on decisive pairs: does the judge prefer the answer the golden checks prefer?

Every run has golden scores beside its verdicts. A battle is a **decisive pair** when one
answer passes its golden case and the other fails, or their golden scores differ by at least
:data:`MIN_SCORE_GAP`. Among decisive pairs with a readable verdict, the judge's accuracy is
the share where it prefers the golden winner (a tie prefers neither, so it counts as a miss),
with a 95% interval: the wider of a bootstrap that resamples golden cases (pairs of one case
go together) and the exact Clopper-Pearson interval on the pairs (so 14 of 14 reads
[0.77, 1.00], never the bootstrap's zero-width [1.00, 1.00]). Battles the crash rule
decided (an answer crashed) are no judge's verdict and are left out. A judge whose interval
reaches down to 0.5 cannot be shown to beat a coin flip on the pairs where the answer is known.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, computed_field

from arena.defaults import BOOTSTRAP_ROUNDS
from arena.vocabulary import ERROR, MODEL_A, MODEL_B, is_tie
from judges._battle import Battle, judge_battles

#: Golden scores this far apart make a pair decisive even when both pass or both fail.
MIN_SCORE_GAP = 0.3
#: Bootstrap rounds of the accuracy interval.
ACCURACY_ROUNDS = BOOTSTRAP_ROUNDS
CHANCE = 0.5


@dataclass(frozen=True)
class GoldenMark:
    """A result's golden score and pass/fail."""

    score: float
    passed: bool


class JudgeAccuracy(BaseModel):
    """Decisive-pair accuracy of one judge, with a query-bootstrap 95% interval."""

    pairs: int
    correct: int
    ties: int
    wrong: int
    errors: int
    accuracy: float | None
    ci_low: float | None
    ci_high: float | None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def beats_chance(self) -> bool | None:
        """True when the whole interval is above 0.5; None without decisive pairs."""
        return None if self.ci_low is None else self.ci_low > CHANCE

    def text(self) -> str:
        """``0.83 [0.67, 1.00] on 12 decisive pairs`` plus what it means."""
        if self.accuracy is None or self.ci_low is None or self.ci_high is None:
            return "unmeasured: no decisive pairs (no pass/fail split among the battles)"
        figure = (
            f"{self.accuracy:.2f} [{self.ci_low:.2f}, {self.ci_high:.2f}] on "
            f"{self.pairs} decisive pair{'s' if self.pairs != 1 else ''}"
        )
        return figure if self.beats_chance else f"{figure}: cannot beat chance"


def golden_winner(a: GoldenMark, b: GoldenMark, min_gap: float = MIN_SCORE_GAP) -> str | None:
    """``model_a`` / ``model_b`` when the golden checks separate the two answers, else None."""
    if a.passed != b.passed:
        return MODEL_A if a.passed else MODEL_B
    if abs(a.score - b.score) >= min_gap - 1e-12:
        return MODEL_A if a.score > b.score else MODEL_B
    return None


def golden_marks(cases: Iterable[object]) -> dict[int, GoldenMark]:
    """Result id -> golden mark, from :class:`arena.scoring.CaseScore` records (results of
    uncounted tiers, simulator errors and results without an id are left out)."""
    marks: dict[int, GoldenMark] = {}
    for case in cases:
        result_id = getattr(case, "result_id", None)
        simulated = getattr(case, "simulator_error", None) is not None
        if result_id is not None and getattr(case, "counted", True) and not simulated:
            marks[int(result_id)] = GoldenMark(float(case.score), bool(case.passed))  # type: ignore[attr-defined]
    return marks


def judge_accuracy(
    battles: list[Battle],
    marks: Mapping[int, GoldenMark],
    *,
    rounds: int = ACCURACY_ROUNDS,
    seed: int = 0,
    min_gap: float = MIN_SCORE_GAP,
) -> JudgeAccuracy:
    """Accuracy of the judge behind ``battles`` on their decisive pairs.

    The interval resamples golden cases with replacement ``rounds`` times (seeded): all
    decisive pairs of a case (every pair of variants, every repeat) go together.
    """
    per_case: dict[str, list[int]] = {}
    correct = ties = wrong = errors = 0
    for battle in judge_battles(battles):
        a, b = marks.get(battle.result_a_id), marks.get(battle.result_b_id)
        if a is None or b is None:
            continue
        truth = golden_winner(a, b, min_gap)
        if truth is None:
            continue
        if battle.winner == ERROR:
            errors += 1
            continue
        hit = battle.winner == truth
        correct += hit
        ties += is_tie(battle.winner)
        wrong += not hit and not is_tie(battle.winner)
        per_case.setdefault(battle.case_id, []).append(int(hit))
    pairs = correct + ties + wrong
    if pairs == 0:
        return JudgeAccuracy(
            pairs=0,
            correct=0,
            ties=0,
            wrong=0,
            errors=errors,
            accuracy=None,
            ci_low=None,
            ci_high=None,
        )
    low, high = _interval(list(per_case.values()), rounds, seed)
    exact_low, exact_high = _exact_interval(correct, pairs)
    low, high = min(low, exact_low), max(high, exact_high)
    return JudgeAccuracy(
        pairs=pairs,
        correct=correct,
        ties=ties,
        wrong=wrong,
        errors=errors,
        accuracy=correct / pairs,
        ci_low=low,
        ci_high=high,
    )


def _interval(hits_per_case: list[list[int]], rounds: int, seed: int) -> tuple[float, float]:
    from arena.ratings import query_multiplicities
    from arena.ratings._bootstrap import CI_PERCENTILES

    hits = np.array([sum(h) for h in hits_per_case], dtype=np.float64)
    totals = np.array([len(h) for h in hits_per_case], dtype=np.float64)
    rng = np.random.default_rng(seed)
    rates = [
        (mult @ hits) / (mult @ totals)
        for mult in query_multiplicities(len(totals), max(1, rounds), rng)
    ]
    low, high = np.percentile(np.concatenate(rates), CI_PERCENTILES)
    return float(low), float(high)


def _exact_interval(hits: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The Clopper-Pearson interval of ``hits`` successes in ``n`` trials."""
    from scipy.special import betaincinv  # scipy.stats' beta.ppf, without its import cost

    tail = (1.0 - level) / 2
    low = 0.0 if hits == 0 else float(betaincinv(hits, n - hits + 1, tail))
    high = 1.0 if hits == n else float(betaincinv(hits + 1, n - hits, 1.0 - tail))
    return low, high

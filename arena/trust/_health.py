"""Judge health: position consistency, first-position and longer-answer win rates, ties,
errors, suspected injections, decisive-pair accuracy, with the thresholds that flag an
unhealthy judge; agreement between two judges' battles of a run (percent and Cohen's kappa).

Every figure is the judge's own: battles the crash rule decided (an answer crashed, no judge
call) are counted apart as ``crashes`` and left out of every figure and agreement. A judge
error (no verdict could be read) is the judge's failure; a crash is the agent's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pydantic import BaseModel

from arena.trust._accuracy import JudgeAccuracy
from arena.trust._cascade import CascadeHealth
from arena.trust._selective_run import SelectiveHealth
from arena.trust._self_preference import SelfPreference
from arena.vocabulary import (
    ERROR,
    LABEL_DIRECTION,
    MODEL_A,
    is_decisive,
    is_tie,
    swap_winner,
)
from judges._battle import Battle, judge_battles


class JudgeHealth(BaseModel):
    """Bias and reliability figures of one judge over its battles.

    ``battles`` are the ones the judge decided; ``crashes`` the ones the crash rule decided
    (an answer crashed): they are in no figure here, ``error_rate`` included.
    """

    judge: str
    judge_key: str
    battles: int
    crashes: int = 0
    judged: int
    position_consistency: float | None
    flip_rate: float | None
    first_position_win_rate: float | None
    longer_answer_win_rate: float | None
    tie_rate: float | None
    error_rate: float | None
    self_judged: int
    suspected_injection: int = 0
    human: bool = False
    tie_margin: float | None = None
    accuracy: JudgeAccuracy | None = None
    selective: SelectiveHealth | None = None
    cascade: CascadeHealth | None = None
    self_preference: SelfPreference | None = None


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def judge_health(battles: list[Battle]) -> JudgeHealth:
    """Health of the judge that produced these battles (one judge); crash battles are only
    counted."""
    if not battles:
        raise ValueError("no battles")
    first, crashes = battles[0], len(battles) - len(judge_battles(battles))
    battles = judge_battles(battles)
    judged = [b for b in battles if b.verdict_ab is not None and b.verdict_ba is not None]
    both_ok = [b for b in judged if b.winner != ERROR]
    first_wins = decisive_orders = 0
    for battle in both_ok:
        for verdict in (battle.verdict_ab, battle.verdict_ba):
            direction = LABEL_DIRECTION[verdict.label] if verdict and verdict.label else 0
            if direction:
                decisive_orders += 1
                first_wins += direction > 0
    decisive = [b for b in battles if is_decisive(b.winner) and b.len_a != b.len_b]
    longer = sum((b.winner == MODEL_A) == (b.len_a > b.len_b) for b in decisive)
    counted = [b for b in battles if b.winner != ERROR]
    consistent = sum(not b.flip for b in both_ok)
    return JudgeHealth(
        judge=first.judge.label,
        judge_key=first.judge.key,
        battles=len(battles),
        crashes=crashes,
        judged=len(judged),
        position_consistency=_ratio(consistent, len(both_ok)),
        flip_rate=_ratio(len(both_ok) - consistent, len(both_ok)),
        first_position_win_rate=_ratio(first_wins, decisive_orders),
        longer_answer_win_rate=_ratio(longer, len(decisive)),
        tie_rate=_ratio(sum(is_tie(b.winner) for b in counted), len(counted)),
        error_rate=_ratio(sum(b.winner == ERROR for b in battles), len(battles)),
        self_judged=sum(b.self_judged for b in battles),
        suspected_injection=sum(bool(b.suspected_injection) for b in battles),
        human=first.judge.is_human,
        tie_margin=next((b.tie_margin for b in battles if b.tie_margin is not None), None),
    )


# When a judge's figures call for a warning: (figure, is it bad?, what it means), shown by
# `arena judge`, `arena health` and the app.
HEALTH_CHECKS: tuple[tuple[str, Callable[[float], bool], str], ...] = (
    ("position_consistency", lambda v: v < 0.8, "often flips with the order"),
    ("first_position_win_rate", lambda v: abs(v - 0.5) > 0.15, "position bias"),
    ("longer_answer_win_rate", lambda v: v > 0.7, "prefers longer answers"),
    ("tie_rate", lambda v: v > 0.5, "mostly ties"),
    ("error_rate", lambda v: v > 0.1, "many unreadable verdicts"),
)


CANNOT_BEAT_CHANCE = "cannot beat chance on decisive pairs"
#: A judge picking its own model's answer this much more often than the golden checks do.
SELF_PREFERENCE_EXCESS = 0.15


def health_warnings(health: JudgeHealth) -> list[str]:
    """Plain-words flags for a judge's health figures (figures not known yet never warn),
    and when its decisive-pair accuracy interval reaches down to chance."""
    warnings = []
    for field, bad, text in HEALTH_CHECKS:
        value = getattr(health, field)
        if value is not None and bad(float(value)):
            warnings.append(text)
    if health.accuracy is not None and health.accuracy.beats_chance is False:
        warnings.append(CANNOT_BEAT_CHANCE)
    own = health.self_preference
    if own is not None and own.excess is not None and own.excess > SELF_PREFERENCE_EXCESS:
        warnings.append(f"favours its own model's answers: {own.text()}")
    if health.suspected_injection:
        warnings.append(
            f"{health.suspected_injection} battle(s) with an answer that addresses the judge "
            "(suspected injection: that answer never wins; the app's Compare tab marks them)"
        )
    return warnings


class Agreement(BaseModel):
    """Agreement of two label sequences over the same battles."""

    n: int
    percent: float | None
    kappa: float | None


def cohen_kappa(left: list[str], right: list[str]) -> Agreement:
    """Percent agreement and Cohen's kappa of two raters over the same items."""
    if len(left) != len(right):
        raise ValueError("raters must label the same items")
    n = len(left)
    if n == 0:
        return Agreement(n=0, percent=None, kappa=None)
    observed = sum(a == b for a, b in zip(left, right, strict=True)) / n
    count_l, count_r = Counter(left), Counter(right)
    expected = sum(count_l[k] * count_r[k] for k in set(count_l) | set(count_r)) / (n * n)
    kappa = 1.0 if expected == 1.0 else (observed - expected) / (1.0 - expected)
    return Agreement(n=n, percent=observed, kappa=kappa)


def _oriented(winner: str, flipped: bool) -> str:
    return swap_winner(winner) if flipped else winner


def judge_agreement(first: list[Battle], second: list[Battle]) -> Agreement:
    """Agreement of two judges on the battles both judged (same pair of results); crash
    battles are no judge's and are left out."""
    index = {
        (b.result_a_id, b.result_b_id): b.winner for b in judge_battles(second) if b.winner != ERROR
    }
    left: list[str] = []
    right: list[str] = []
    for battle in judge_battles(first):
        if battle.winner == ERROR:
            continue
        other = index.get((battle.result_a_id, battle.result_b_id))
        flipped = False
        if other is None:
            other = index.get((battle.result_b_id, battle.result_a_id))
            flipped = True
        if other is not None:
            left.append(battle.winner)
            right.append(_oriented(other, flipped))
    return cohen_kappa(left, right)

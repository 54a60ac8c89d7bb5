"""Combine the two orders of a battle into one outcome (position swapping).

A battle asks the judge twice, A shown first (``ab``) and B shown first (``ba``). Each judge
mode picks the rule that suits its verdicts: the agreement rule for written verdicts, the
averaging rule for probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.vocabulary import (
    ERROR,
    LABEL_DIRECTION,
    STRONG_LABELS,
    TIE,
    swap_label,
    winner_from_direction,
)
from judges.parsing import label_from_probability
from judges.types import Verdict


@dataclass(frozen=True)
class Outcome:
    """The combined result, from the point of view of the variant called A."""

    winner: str  # arena.vocabulary winners: model_a | model_b | tie | error
    strong: bool
    flip: bool
    p_a: float | None
    error: str | None = None


def _failed(ab: Verdict, ba: Verdict) -> Outcome | None:
    """An error outcome when either order could not be read: never a tie or a win."""
    if ab.ok and ba.ok:
        return None
    return Outcome(ERROR, False, False, None, ab.error or ba.error or "unreadable verdict")


def agreement_rule(ab: Verdict, ba: Verdict) -> Outcome:
    """Two agreeing verdicts give a winner, strong if both are strong; disagreeing verdicts
    give a tie and count as a flip (position inconsistency)."""
    failed = _failed(ab, ba)
    if failed is not None:
        return failed
    assert ab.label is not None and ba.label is not None
    first, second = ab.label, swap_label(ba.label)
    d1, d2 = LABEL_DIRECTION[first], LABEL_DIRECTION[second]
    if d1 != d2 or d1 == 0:
        return Outcome(TIE, False, d1 != d2, None)
    strong = first in STRONG_LABELS and second in STRONG_LABELS
    return Outcome(winner_from_direction(d1), strong, False, None)


def averaging_rule(ab: Verdict, ba: Verdict) -> Outcome:
    """P(A better) averaged over both orders, so a pure position preference cancels out; the
    per-order verdicts still count a flip when they disagree. Without both probabilities it
    falls back to the agreement rule."""
    failed = _failed(ab, ba)
    if failed is not None:
        return failed
    if ab.p_first is None or ba.p_first is None:
        return agreement_rule(ab, ba)
    assert ab.label is not None and ba.label is not None
    flip = LABEL_DIRECTION[ab.label] != LABEL_DIRECTION[swap_label(ba.label)]
    p_a = (ab.p_first + (1.0 - ba.p_first)) / 2
    label = label_from_probability(p_a, ab.judge.tie_margin)
    return Outcome(winner_from_direction(LABEL_DIRECTION[label]), label in STRONG_LABELS, flip, p_a)


def combine(ab: Verdict, ba: Verdict) -> Outcome:
    """The outcome of a battle by the rule of the judge's mode (see :mod:`judges.modes`)."""
    from judges.modes import get_mode

    return get_mode(ab.judge.mode).combine(ab, ba)

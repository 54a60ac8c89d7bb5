"""Combine the two orders of a battle into one outcome (position swapping).

A battle asks the judge twice, A shown first (``ab``) and B shown first (``ba``). Each judge
mode picks the rule that suits its verdicts: the agreement rule for written verdicts; for
probabilities the rule the spec names (``JudgeSpec.combine``):

- ``average`` (the default): P(A better) = (P(A better | A first) + 1 - P(B better | B
  first)) / 2. It cancels a pure position preference, but a strong one squashes the signal:
  0.99 and 0.99 average to 0.5 whatever the answers.
- ``logit``: with ``l1 = logit P(A better | A first)`` and ``l2 = logit P(B better | B
  first)``, P(A better) = sigmoid((l1 - l2) / 2). A constant preference for the first slot is
  an additive offset in log-odds, and cancels exactly however strong it is. On the demo run
  (a moderate preference, P(first) 0.53-0.72) both rules gave the same verdicts, so the
  default stays ``average``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from arena.vocabulary import (
    ERROR,
    LABEL_DIRECTION,
    STRONG_LABELS,
    TIE,
    swap_label,
    winner_from_direction,
)
from judges._parsing import label_from_probability, reading_margin
from judges._types import Verdict

#: Probabilities are clipped this far from 0 and 1 before taking log-odds.
EPSILON = 1e-6


@dataclass(frozen=True)
class Outcome:
    """The combined result, from the point of view of the variant called A."""

    winner: str  # arena.vocabulary winners: model_a | model_b | tie | error
    strong: bool
    flip: bool
    p_a: float | None
    error: str | None = None


def logit(p: float) -> float:
    """log(p / (1 - p)), with p clipped to [EPSILON, 1 - EPSILON]."""
    p = min(max(p, EPSILON), 1.0 - EPSILON)
    return math.log(p / (1.0 - p))


def sigmoid(x: float) -> float:
    """1 / (1 + exp(-x))."""
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def combined_probability(p_ab: float, p_ba: float, combination: str) -> float:
    """P(A better) from P(first better) in both orders (``p_ba`` showed B first)."""
    if combination == "average":
        return (p_ab + (1.0 - p_ba)) / 2
    return sigmoid((logit(p_ab) - logit(p_ba)) / 2)


def position_offset(p_ab: float, p_ba: float, combination: str) -> float:
    """The part of the two orders' verdicts that follows the slot, not the answer: half the
    sum of both orders' log-odds (``logit``) or of their distances from 0.5 (``average``).
    A judge that is not swayed by the order has offsets near 0."""
    if combination == "average":
        return (p_ab + p_ba - 1.0) / 2
    return (logit(p_ab) + logit(p_ba)) / 2


def _failed(ab: Verdict, ba: Verdict) -> Outcome | None:
    """An error outcome when either order could not be read: never a tie or a win."""
    if ab.ok and ba.ok:
        return None
    return Outcome(ERROR, False, False, None, ab.error or ba.error or "unreadable verdict")


def agreement_rule(ab: Verdict, ba: Verdict) -> Outcome:
    """Combine the two orders of a written verdict: both must agree.

    Args:
        ab: the verdict with the first answer shown first.
        ba: the verdict with the order swapped.

    Returns:
        A winner when both agree (strong if both are strong); otherwise a tie that counts as
        a flip (position inconsistency).
    """
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


def probability_rule(
    ab: Verdict, ba: Verdict, combination: str = "average", tie_margin: float | None = None
) -> Outcome:
    """P(A better) from both orders, a tie within ``tie_margin`` of 0.5.

    The per-order verdicts still count a flip when they disagree. Without both probabilities
    it falls back to the agreement rule.

    Args:
        ab: the verdict with the first answer shown first.
        ba: the verdict with the order swapped.
        combination: ``average`` (the mean probability) or ``logit`` (half the difference of
            the log-odds).
        tie_margin: default: the spec's margin, else :data:`~judges._types.DEFAULT_TIE_MARGIN`.

    Returns:
        The battle's outcome.
    """
    failed = _failed(ab, ba)
    if failed is not None:
        return failed
    if ab.p_first is None or ba.p_first is None:
        return agreement_rule(ab, ba)
    assert ab.label is not None and ba.label is not None
    flip = LABEL_DIRECTION[ab.label] != LABEL_DIRECTION[swap_label(ba.label)]
    p_a = combined_probability(ab.p_first, ba.p_first, combination)
    margin = tie_margin if tie_margin is not None else reading_margin(ab.judge)
    label = label_from_probability(p_a, margin)
    return Outcome(winner_from_direction(LABEL_DIRECTION[label]), label in STRONG_LABELS, flip, p_a)


def averaging_rule(ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
    """P(A better) averaged over both orders (:func:`probability_rule` with ``average``).

    Args:
        ab: the verdict with the first answer shown first.
        ba: the verdict with the order swapped.
        tie_margin: a tie within this of 0.5 (default: the spec's margin).

    Returns:
        The battle's outcome.
    """
    return probability_rule(ab, ba, "average", tie_margin)


def logit_rule(ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
    """Half the difference of both orders' log-odds (:func:`probability_rule` with ``logit``).

    Args:
        ab: the verdict with the first answer shown first.
        ba: the verdict with the order swapped.
        tie_margin: a tie within this of 0.5 (default: the spec's margin).

    Returns:
        The battle's outcome.
    """
    return probability_rule(ab, ba, "logit", tie_margin)

"""Combine the two orders of a battle into one outcome (position swapping)."""

from __future__ import annotations

from dataclasses import dataclass

from judges.parsing import label_from_probability
from judges.records import Label, Verdict

_DIRECTION = {"A>>B": 1, "A>B": 1, "A=B": 0, "B>A": -1, "B>>A": -1}
_STRONG = {"A>>B", "B>>A"}


@dataclass(frozen=True)
class Outcome:
    """The combined result, from the point of view of the variant called A."""

    winner: str  # model_a | model_b | tie | error
    strong: bool
    flip: bool
    p_a: float | None
    error: str | None = None


def _swap(label: Label) -> Label:
    swapped = {"A>>B": "B>>A", "A>B": "B>A", "A=B": "A=B", "B>A": "A>B", "B>>A": "A>>B"}
    return swapped[label]  # type: ignore[return-value]


def combine(ab: Verdict, ba: Verdict, *, average: bool) -> Outcome:
    """Outcome of a battle from the verdict with A shown first and the one with B first.

    Agreement rule (text verdicts): two agreeing verdicts give a winner, strong if both are
    strong; disagreeing verdicts give a tie and count as a flip. Averaging rule (logprob
    verdicts): P(A better) is averaged over both orders, so a pure position preference cancels
    out; the per-order verdicts still count a flip when they disagree.
    """
    if not ab.ok or not ba.ok:
        return Outcome("error", False, False, None, ab.error or ba.error or "unreadable verdict")
    assert ab.label is not None and ba.label is not None
    first, second = ab.label, _swap(ba.label)
    d1, d2 = _DIRECTION[first], _DIRECTION[second]
    flip = d1 != d2
    if average and ab.p_first is not None and ba.p_first is not None:
        p_a = (ab.p_first + (1.0 - ba.p_first)) / 2
        tie_margin = ab.judge.tie_margin
        label = label_from_probability(p_a, tie_margin)
        direction = _DIRECTION[label]
        winner = {1: "model_a", -1: "model_b", 0: "tie"}[direction]
        return Outcome(winner, label in _STRONG, flip, p_a)
    if flip or d1 == 0:
        return Outcome("tie", False, flip, None)
    winner = "model_a" if d1 > 0 else "model_b"
    return Outcome(winner, first in _STRONG and second in _STRONG, False, None)

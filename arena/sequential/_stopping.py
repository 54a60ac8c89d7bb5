"""When a sequential comparison may stop, and what it decided.

The outcome of a case is the candidate's share of the win against the baseline, in [0, 1]
(1 a win, 0 a loss, 0.5 a tie; both judge orders averaged), so 0.5 means "equal". With the
interval ``[lower, upper]`` of its mean after each case (valid at every look up to the budget:
:mod:`arena.sequential._spending`, or at every look at all: the betting sequence), at a
``margin``:

- **better**: ``lower > 0.5``, the candidate wins more often than not;
- **worse**: ``upper < 0.5 - margin``, it loses by more than the margin;
- **non-inferior**: ``lower >= 0.5 - margin`` and (``upper <= 0.5 + margin``: within the
  margin either way, or the question is only "worse or not", :data:`NON_INFERIORITY`, as for
  the merge gate);
- **undecided** at the budget: every case allowed was used and none of these holds;
- **undecided, futile** (``futile=True``, :func:`arena.sequential.futile`): a decision by the
  budget has become unlikely, so the run stops early, undecided; this adds no decision.

Each side of the interval misses with at most ``alpha / 2``, so "better" when the variants
are equal happens with probability at most ``alpha / 2`` however often one looks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Decision = Literal["better", "worse", "non-inferior", "undecided"]
Question = Literal["three-way", "non-inferiority"]
#: Stop at better, worse, or within the margin either way (``arena compare``).
THREE_WAY: Question = "three-way"
#: Stop as soon as worse or non-inferior is settled (``arena gate``: it fails on worse only).
NON_INFERIORITY: Question = "non-inferiority"


@dataclass(frozen=True)
class Stop:
    """The state of the decision after some cases: settled or not, and why."""

    decision: Decision
    settled: bool
    reason: str


def decide(
    lower: float,
    upper: float,
    *,
    margin: float,
    seen: int,
    budget: int,
    question: Question = THREE_WAY,
    futile: bool = False,
) -> Stop:
    """The decision after ``seen`` of ``budget`` cases (module docstring); ``futile`` says
    the futility rule found a decision by the budget unlikely."""
    if not 0 <= margin < 0.5:
        raise ValueError(f"margin must be in [0, 0.5), got {margin}")
    floor = 0.5 - margin
    interval = f"[{lower:.3f}, {upper:.3f}] after {seen} case(s)"
    if lower > 0.5:
        return Stop("better", True, f"the interval {interval} is above 0.5")
    if upper < floor:
        return Stop("worse", True, f"the interval {interval} is below {floor:.2f}")
    if lower >= floor and (upper <= 0.5 + margin or question == NON_INFERIORITY):
        where = (
            f"above {floor:.2f}"
            if question == NON_INFERIORITY
            else f"within {floor:.2f} and {0.5 + margin:.2f}"
        )
        return Stop("non-inferior", True, f"the interval {interval} is {where}")
    if futile and seen < budget:
        return Stop(
            "undecided",
            True,
            f"undecided: more cases would not settle it (a decision by the budget of {budget} "
            f"cases has become unlikely; the interval {interval})",
        )
    if seen >= budget:
        return Stop(
            "undecided",
            True,
            f"undecided at the budget: the interval {interval} settles nothing at margin {margin}",
        )
    return Stop("undecided", False, f"not settled yet: the interval {interval}")

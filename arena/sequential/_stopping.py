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

import numpy as np
from numpy.typing import ArrayLike, NDArray

Decision = Literal["better", "worse", "non-inferior", "undecided"]
Question = Literal["three-way", "non-inferiority"]
#: Stop at better, worse, or within the margin either way (``arena compare``).
THREE_WAY: Question = "three-way"
#: Stop as soon as worse or non-inferior is settled (``arena gate``: it fails on worse only).
NON_INFERIORITY: Question = "non-inferiority"

#: The codes of :func:`decisions`: not settled, better, worse, non-inferior, undecided because
#: futile, undecided at the budget.
OPEN, BETTER, WORSE, NON_INFERIOR, FUTILE, AT_BUDGET = range(6)


#: How a futility stop reads in every report.
FUTILE_REASON = "undecided: more cases would not settle it"


@dataclass(frozen=True)
class Stop:
    """The state of the decision after some cases: settled or not, and why."""

    decision: Decision
    settled: bool
    reason: str


def decisions(
    lower: ArrayLike,
    upper: ArrayLike,
    *,
    margin: float,
    seen: int,
    budget: int,
    question: Question = THREE_WAY,
    futile: ArrayLike = False,
) -> NDArray[np.int_]:
    """The decision code per sequence (:data:`OPEN` ... :data:`AT_BUDGET`) of the rule in the
    module docstring, for many sequences at once (:func:`decide` is this for one, with its
    reason); ``futile`` per sequence says the futility rule found a decision unlikely."""
    if not 0 <= margin < 0.5:
        raise ValueError(f"margin must be in [0, 0.5), got {margin}")
    low, high = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    floor = 0.5 - margin
    code = np.full(np.broadcast(low, high).shape, OPEN, dtype=int)
    code[...] = np.where(seen >= budget, AT_BUDGET, OPEN)
    code[np.asarray(futile, dtype=bool) & (seen < budget) & (code == OPEN)] = FUTILE
    within = high <= 0.5 + margin if question != NON_INFERIORITY else np.ones_like(low, bool)
    code[(low >= floor) & within] = NON_INFERIOR
    code[high < floor] = WORSE
    code[low > 0.5] = BETTER
    return code


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
    code = int(
        decisions(
            lower, upper, margin=margin, seen=seen, budget=budget, question=question,
            futile=futile,
        )
    )  # fmt: skip
    floor = 0.5 - margin
    interval = f"[{lower:.3f}, {upper:.3f}] after {seen} case(s)"
    if code == BETTER:
        return Stop("better", True, f"the interval {interval} is above 0.5")
    if code == WORSE:
        return Stop("worse", True, f"the interval {interval} is below {floor:.2f}")
    if code == NON_INFERIOR:
        where = (
            f"above {floor:.2f}"
            if question == NON_INFERIORITY
            else f"within {floor:.2f} and {0.5 + margin:.2f}"
        )
        return Stop("non-inferior", True, f"the interval {interval} is {where}")
    if code == FUTILE:
        return Stop(
            "undecided",
            True,
            f"{FUTILE_REASON} (a decision by the budget of {budget} cases has become unlikely; "
            f"the interval {interval})",
        )
    if code == AT_BUDGET:
        return Stop(
            "undecided",
            True,
            f"undecided at the budget: the interval {interval} settles nothing at margin {margin}",
        )
    return Stop("undecided", False, f"not settled yet: the interval {interval}")

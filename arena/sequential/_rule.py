"""The stopping rule applied to a sequence: the interval, the futility rule, the decision.

One function for many sequences at once (:func:`stop_codes`, what the simulation tests run)
and the same for the driver's one sequence with its reason (:func:`stop_now`): both read the
interval of the sequence, ask :func:`arena.sequential.futile` on the known-horizon boundary
(the anytime betting sequence has no futility stop) and apply
:func:`arena.sequential._stopping.decisions`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from arena.sequential._betting import BettingCS
from arena.sequential._boundary import SPENDING, BoundaryPlan
from arena.sequential._futility import futile
from arena.sequential._spending import SpendingCS
from arena.sequential._stopping import NON_INFERIORITY, Question, Stop, decide, decisions

Sequence = BettingCS | SpendingCS


def futile_now(cs: Sequence, plan: BoundaryPlan, question: Question) -> NDArray[np.bool_]:
    """Per sequence: has a decision by the budget become unlikely (spending boundary only)?"""
    if plan.boundary != SPENDING or not isinstance(cs, SpendingCS):
        return np.zeros(np.asarray(cs.total).size, dtype=bool)
    return futile(cs, plan.margin, plan.futility, non_inferiority=question == NON_INFERIORITY)


def stop_codes(
    cs: Sequence, plan: BoundaryPlan, *, seen: int, budget: int, question: Question
) -> NDArray[np.int_]:
    """The decision code of every sequence of ``cs`` after ``seen`` of ``budget`` cases."""
    lower, upper = cs.bounds()
    return decisions(
        lower, upper, margin=plan.margin, seen=seen, budget=budget, question=question,
        futile=futile_now(cs, plan, question),
    )  # fmt: skip


def stop_now(
    cs: Sequence, plan: BoundaryPlan, *, seen: int, budget: int, question: Question
) -> Stop:
    """The decision of the one sequence of ``cs`` (the driver's), with its reason."""
    lower, upper = cs.bounds()
    return decide(
        float(lower[0]), float(upper[0]), margin=plan.margin, seen=seen, budget=budget,
        question=question, futile=bool(futile_now(cs, plan, question)[0]),
    )  # fmt: skip

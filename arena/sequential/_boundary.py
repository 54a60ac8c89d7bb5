"""The boundary plan of a sequential run: every parameter its boundary is a pure function of.

A run fixes its :class:`BoundaryPlan` before the first case: the budget (the most cases it may
use), alpha, the margin, the betting horizon, the boundary and the futility threshold.
:func:`make_sequence` builds the interval from the plan alone, so a continued run rebuilds
the same boundary from the stored plan and replays the same outcomes to the same decisions.

**Continuing a run** (:func:`continuation_valid`): a continuation may keep or lower the
budget under any boundary. Raising it is valid only for the anytime boundary (the betting
sequence holds at every number of cases, so more cases never spend more alpha) with the
same alpha, margin and horizon. The known-horizon boundary has spent the whole allowance by
the original budget: raising it would spend alpha again, so that continuation is refused
(start a new plan, whose error adds to the first one's). :func:`continued` gives the plan of
a valid continuation (the horizon pinned, so the bets stay the same) or raises.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from arena.sequential._betting import BettingCS
from arena.sequential._spending import SpendingCS

BoundaryKind = Literal["spending", "anytime"]
#: Spend the allowance by the budget (Lan-DeMets, O'Brien-Fleming type): more power and
#: futility stops; valid up to the budget only.
SPENDING: BoundaryKind = "spending"
#: The betting confidence sequence: valid at every number of cases, the budget included.
ANYTIME: BoundaryKind = "anytime"
#: Stop for futility once the chance of a decision by the budget is under this.
FUTILITY = 0.02


@dataclass(frozen=True)
class BoundaryPlan:
    """What a sequential run's boundary depends on (module docstring)."""

    budget: int
    alpha: float = 0.05
    margin: float = 0.05
    boundary: BoundaryKind = SPENDING
    futility: float = FUTILITY
    """0 turns futility stops off; only the spending boundary has them."""
    horizon: int | None = None
    """The betting sequence's horizon (default: half the budget)."""

    def __post_init__(self) -> None:
        if self.budget < 1:
            raise ValueError(f"budget must be at least 1, got {self.budget}")
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be in (0, 1), got {self.alpha}")
        if not 0 <= self.margin < 0.5:
            raise ValueError(f"margin must be in [0, 0.5), got {self.margin}")
        if self.boundary not in (SPENDING, ANYTIME):
            raise ValueError(f"boundary must be {SPENDING!r} or {ANYTIME!r}, got {self.boundary!r}")
        if not 0 <= self.futility < 1:
            raise ValueError(f"futility must be in [0, 1), got {self.futility}")

    @property
    def betting_horizon(self) -> int:
        """The horizon the betting sequence's bets are tuned to."""
        return self.horizon or max(self.budget // 2, 1)

    def to_dict(self) -> dict[str, Any]:
        """The plan as stored with a run."""
        return asdict(self)

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> BoundaryPlan:
        """The plan a run stored (:meth:`to_dict`)."""
        return cls(**stored)


def make_sequence(
    plan: BoundaryPlan, *, sequences: int = 1, population: int | None = None
) -> BettingCS | SpendingCS:
    """The interval of ``plan``: the known-horizon one, or the betting sequence for the
    anytime boundary and for a finite ``population`` (sampling without replacement)."""
    if plan.boundary == SPENDING and population is None:
        return SpendingCS(plan.alpha, budget=plan.budget, sequences=sequences)
    return BettingCS(
        plan.alpha, sequences=sequences, population=population, horizon=plan.betting_horizon
    )


def continuation_valid(plan: BoundaryPlan, budget: int, **changes: Any) -> tuple[bool, str]:
    """Whether continuing the run of ``plan`` up to ``budget`` cases (with ``changes`` to
    other plan fields, if any) keeps its error rate, and why (module docstring)."""
    for name, value in changes.items():
        if name not in BoundaryPlan.__dataclass_fields__:
            raise ValueError(f"a plan has no field {name!r}")
        if name != "budget" and getattr(plan, name) != value:
            return False, (
                f"the run's {name} was {getattr(plan, name)!r}: continuing with {value!r} "
                "would change the boundary its evidence was judged on"
            )
    if budget <= plan.budget:
        return True, f"{budget} cases are within the planned budget of {plan.budget}"
    if plan.boundary == ANYTIME:
        return True, (
            f"the anytime boundary holds at every number of cases: continuing from "
            f"{plan.budget} to {budget} cases spends no more alpha"
        )
    return False, (
        f"the known-horizon boundary spent all of alpha {plan.alpha} by the planned budget of "
        f"{plan.budget} cases: continuing to {budget} would spend it again; start a new plan "
        "(its error adds to this one's) or plan the larger budget from the start"
    )


def continued(plan: BoundaryPlan, budget: int) -> BoundaryPlan:
    """The plan continuing ``plan`` up to ``budget`` cases, with the same bets (its horizon
    pinned); ValueError with the reason when :func:`continuation_valid` refuses it."""
    valid, reason = continuation_valid(plan, budget)
    if not valid:
        raise ValueError(reason)
    return replace(plan, budget=budget, horizon=plan.betting_horizon)

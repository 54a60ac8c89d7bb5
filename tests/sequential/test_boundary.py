"""The plan a run's boundary is a pure function of, and which continuations keep its error."""

from __future__ import annotations

import numpy as np
import pytest

from arena.sequential import (
    ANYTIME,
    BettingCS,
    BoundaryPlan,
    SpendingCS,
    continuation_valid,
    continued,
    make_sequence,
)

pytestmark = pytest.mark.unit


def _replay(plan: BoundaryPlan, outcomes: np.ndarray) -> list[tuple[float, float]]:
    cs = make_sequence(plan)
    bounds = []
    for x in outcomes:
        cs.update([x])
        low, high = cs.bounds()
        bounds.append((float(low[0]), float(high[0])))
    return bounds


@pytest.mark.parametrize("boundary", ["spending", ANYTIME])
def test_a_stored_plan_rebuilds_the_same_boundary(boundary: str) -> None:
    plan = BoundaryPlan(60, alpha=0.01, margin=0.1, boundary=boundary)  # type: ignore[arg-type]
    outcomes = np.random.default_rng(0).choice([0.0, 0.5, 1.0], size=40)
    again = BoundaryPlan.from_dict(plan.to_dict())
    assert again == plan and _replay(again, outcomes) == _replay(plan, outcomes)


def test_the_plan_picks_the_interval() -> None:
    assert isinstance(make_sequence(BoundaryPlan(50)), SpendingCS)
    assert isinstance(make_sequence(BoundaryPlan(50, boundary=ANYTIME)), BettingCS)
    finite = make_sequence(BoundaryPlan(50), population=50)  # without replacement: the betting one
    assert isinstance(finite, BettingCS) and finite.population == 50
    assert make_sequence(BoundaryPlan(50, boundary=ANYTIME)).horizon == 25


def test_a_larger_budget_is_refused_on_the_spending_boundary() -> None:
    plan = BoundaryPlan(40)
    assert continuation_valid(plan, 40)[0] and continuation_valid(plan, 30)[0]
    valid, reason = continuation_valid(plan, 80)
    assert not valid and "spent all of alpha 0.05" in reason and "40 cases" in reason
    with pytest.raises(ValueError, match="would spend it again"):
        continued(plan, 80)


def test_the_anytime_boundary_continues_with_the_same_bets() -> None:
    plan = BoundaryPlan(40, boundary=ANYTIME)
    more = continued(plan, 200)
    assert more.budget == 200 and more.betting_horizon == plan.betting_horizon == 20
    assert continuation_valid(plan, 200)[0]
    valid, reason = continuation_valid(plan, 200, alpha=0.1)
    assert not valid and "alpha" in reason
    with pytest.raises(ValueError, match="no field"):
        continuation_valid(plan, 200, seed=3)


@pytest.mark.parametrize(
    ("field", "value"),
    [("budget", 0), ("alpha", 1.0), ("margin", 0.5), ("boundary", "x"), ("futility", 1.0)],
)
def test_a_bad_plan_is_refused(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        BoundaryPlan(**{"budget": 10, field: value})  # type: ignore[arg-type]

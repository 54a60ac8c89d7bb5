"""The stopping rule: better, worse, non-inferior at a margin, undecided at the budget."""

from __future__ import annotations

import pytest

from arena.sequential import NON_INFERIORITY, decide

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("lower", "upper", "question", "decision", "settled"),
    [
        (0.55, 0.9, "three-way", "better", True),
        (0.1, 0.44, "three-way", "worse", True),
        (0.46, 0.54, "three-way", "non-inferior", True),  # within the margin either way
        (0.46, 0.7, "three-way", "undecided", False),  # could still be better
        (0.46, 0.7, NON_INFERIORITY, "non-inferior", True),  # the gate asks "worse or not"
        (0.3, 0.5, "three-way", "undecided", False),
    ],
)
def test_each_rule(lower: float, upper: float, question: str, decision: str, settled: bool) -> None:
    stop = decide(lower, upper, margin=0.05, seen=10, budget=20, question=question)  # type: ignore[arg-type]
    assert (stop.decision, stop.settled) == (decision, settled)
    assert f"[{lower:.3f}, {upper:.3f}] after 10 case(s)" in stop.reason


def test_the_budget_settles_as_undecided() -> None:
    stop = decide(0.3, 0.7, margin=0.05, seen=20, budget=20)
    assert stop.settled and stop.decision == "undecided"
    assert stop.reason.startswith("undecided at the budget")


def test_a_bad_margin_is_refused() -> None:
    with pytest.raises(ValueError, match="margin"):
        decide(0.3, 0.7, margin=0.6, seen=1, budget=2)

"""The gate names every critical case whose pass flipped (issue 45, item 4). In the issue's
trial the gate named 133 of 167 critical cases that broke: the 34 others were false passes of
the candidate (a wrong end state the scoring did not see as a miss), so the rules saw no
flip and said at most ``case_score_drop`` (a warning). An end state the case states is now a
hard fail when it is missed, so the same change flips the case and the gate blocks on it,
naming the case and the record."""

from __future__ import annotations

from typing import Any

import pytest

from arena.gate import check_regression
from arena.golden import GoldenDataset
from arena.records.end_state import RecordChange, StateDiff
from arena.records.results import RunResult, TrajectoryStep
from arena.scoring import aggregate, make_baseline, score_result

pytestmark = pytest.mark.unit

CASE: dict[str, Any] = {
    "id": "CANCEL-1",
    "input": "Cancel my order #W1.",
    "category": "happy_path",
    "tier": "critical",
    "expected_tools": ["cancel_order"],
    "expected_args": {"cancel_order": {"order_id": "#W1"}},
    "expected_output_contains": ["cancelled"],
}
STATE = {"expected_state": {"orders/#W1": {"status": "cancelled"}}}


def _result(variant: str, *orders: str) -> RunResult:
    return RunResult(
        variant=variant,
        variant_hash=variant,
        case_id="CANCEL-1",
        case_hash="c",
        output="Your order has been cancelled.",
        steps=[
            TrajectoryStep(index=i, tool="cancel_order", args={"order_id": o}, observation="ok")
            for i, o in enumerate(orders)
        ],
        model_calls=len(orders) + 1,
        end_state=StateDiff(
            changes=[
                RecordChange(
                    record=f"orders/{order}",
                    change="changed",
                    before={"status": "pending"},
                    after={"status": "cancelled"},
                )
                for order in orders
            ],
            named={"orders/#W1": {"status": "cancelled"}},
        ),
    )


def _gate(case: dict[str, Any]) -> Any:
    dataset = GoldenDataset.model_validate(
        {"name": "store", "available_tools": ["cancel_order"], "test_cases": [case]}
    )
    (golden,) = dataset.test_cases
    baseline, candidate = [_result("main", "#W1")], [_result("change", "#W1", "#W2")]
    base_scores = [score_result(r, golden) for r in baseline]
    [base_agg] = aggregate(base_scores, baseline)
    saved = make_baseline(base_agg, base_scores, name="main", dataset=dataset, results=baseline)
    cand_scores = [score_result(r, golden) for r in candidate]
    [cand_agg] = aggregate(cand_scores, candidate)
    return check_regression(saved, cand_agg, cand_scores, results=candidate, dataset=dataset)


def test_a_critical_case_whose_end_state_broke_is_critical_broken() -> None:
    report = _gate({**CASE, **STATE})
    broken = [r for r in report.reasons if r.rule == "critical_broken"]
    assert [(r.case_id, r.severity) for r in broken] == [("CANCEL-1", "block")]
    assert "orders/#W2 status: pending -> cancelled, not expected" in broken[0].message
    assert report.regressed and report.broken_cases == ["CANCEL-1"]
    assert not [r for r in report.reasons if r.rule == "case_score_drop"]
    # What the trial saw: without the end state the candidate passes (a call beyond the
    # expected one counts for nothing), so no rule names the case as broken.
    loose = _gate(CASE)
    assert loose.broken_cases == [] and not [r for r in loose.reasons if r.case_id]

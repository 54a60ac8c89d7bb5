"""A cost that is not known stays unknown wherever it is stored and shown (issue 51): a
result's ``cost_usd`` is None (a nullable column), and a sum or mean over results with one
unknown cost is unknown too (leaving it out would under-count, and say so nowhere)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.records.results import RunResult, known_mean, known_total
from arena.reports._render import summary_row
from arena.runner import summarize
from arena.scoring import VariantScores
from arena.scoring._aggregate import _run_figures
from arena.storage import Store

pytestmark = pytest.mark.unit


def _result(case: str, cost: float | None) -> RunResult:
    return RunResult(variant="v", variant_hash="h" * 12, case_id=case, case_hash=case * 12,
                     output="a", input_tokens=10, output_tokens=2, cost_usd=cost)  # fmt: skip


def test_a_sum_with_an_unknown_cost_is_unknown() -> None:
    assert known_total([0.25, 0.5]) == 0.75 and known_total([]) == 0.0
    assert known_total([0.25, None, 0.5]) is None
    assert known_mean([0.25, 0.75]) == 0.5 and known_mean([0.1, None]) is None
    (summary,) = summarize([_result("a", 0.001), _result("b", None)])
    assert summary.cost_usd is None and summary.input_tokens == 20


def test_an_unknown_cost_is_stored_as_null_not_zero(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    from arena.golden import GoldenDataset

    dataset = GoldenDataset.model_validate({"name": "d", "available_tools": [], "test_cases": []})
    run_id, _ = store.open_run("key", store.ensure_dataset(dataset, "d.json"), {})
    for result in (_result("a", None), _result("b", 0.002)):
        store.save_result(result.model_copy(update={"run_id": run_id}))
    costs = {r.case_id: r.cost_usd for r in store.results(run_id)}
    assert costs == {"a": None, "b": 0.002}


def test_scores_and_reports_say_unknown() -> None:
    unknown = _run_figures([_result("a", None), _result("b", 0.002)])
    assert unknown["cost_mean_usd"] is None and unknown["cost_total_usd"] is None
    known = _run_figures([_result("a", 0.001), _result("b", 0.003)])
    assert known["cost_total_usd"] == pytest.approx(0.004)
    figures = {"variant": "v", "variant_hash": "h" * 12, "pass_rate": 1.0, "n_counted_cases": 2,
               "critical_pass_rate": 1.0, "mean_score": 1.0, "task_completion_rate": 1.0,
               "tool_accuracy": 1.0, "latency_p50_s": 0.1, "latency_p90_s": 0.2,
               "error_rate": 0.0}  # fmt: skip
    row = summary_row(VariantScores.model_construct(**{**unknown, **figures}))
    assert "unknown" in row and "$0.0000" not in row

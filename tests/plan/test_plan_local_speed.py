"""`arena plan` on the real local model estimates a run's and its judging's wall time from a
measured request (one case, the smallest model, two variants so that there is a pair to
judge): each estimate exists and names where it comes from. How close the estimates come to
the measured times is a benchmark, never an assertion (a loaded machine takes longer):
``python -m benchmarks plan_estimate_bench``."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.plan_estimate_bench import CASE, JUDGE, plan_and_variants
from judges import parse_judge

pytestmark = pytest.mark.integration


def test_plan_estimates_the_run_and_the_judging_from_a_measured_request(
    db_url: str, golden_path: Path, variants_dir: Path
) -> None:
    plan, _variants, _dataset = plan_and_variants(db_url, golden_path, variants_dir)
    assert plan.judge is not None
    assert all("measured on local:" in v.per_task.source for v in plan.variants)
    assert all(v.wall_s > 0 for v in plan.variants)
    assert plan.judge.wall_s > 0 and plan.judge.to_send > 0
    assert plan.judge.per_call.source, "the judging estimate names its source"
    assert [v.tasks for v in plan.variants] == [1, 1], CASE
    assert parse_judge(JUDGE).key == plan.judge.judge_key

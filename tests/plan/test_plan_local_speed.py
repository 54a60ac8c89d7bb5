"""`arena plan` on the real local model: its wall-time estimates of a run and of its judging
are within 2x of the measured times (one case, the smallest model, two variants so that
there is a pair to judge)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from arena.battles import judge_run
from arena.golden import load_dataset
from arena.plan import plan_run
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant
from judges import parse_judge

pytestmark = pytest.mark.integration

CASE = "HP-003"  # one calculator call, then the answer


def test_plan_is_within_2x_of_the_run_and_the_judging(
    db_url: str, golden_path: Path, variants_dir: Path
) -> None:
    store = Store(db_url)  # a fresh database: no history, no cached call
    dataset = load_dataset(golden_path)
    small = load_variant(variants_dir / "small-model.yaml")
    terse = small.model_copy(
        update={"name": "small-terse", "system_prompt": small.system_prompt + "\nBe terse."}
    )
    spec = parse_judge("local:qwen2.5-coder-0.5b")
    plan = plan_run(store, dataset, [small, terse], case_ids=[CASE], judge=spec, concurrency=1)
    assert plan.judge is not None
    assert all("measured on local:" in v.per_task.source for v in plan.variants)

    started = time.monotonic()
    report = run_suite(
        store, dataset, [small, terse], RunOptions(case_ids=[CASE], progress=False, concurrency=1)
    )
    run_s = time.monotonic() - started
    started = time.monotonic()
    judged = judge_run(store, report.run_id, spec, progress=False, concurrency=1)
    judge_s = time.monotonic() - started

    run_estimate = sum(v.wall_s for v in plan.variants)
    print(f"\n{plan.variants[0].per_task!r}\n{plan.judge.per_call!r}")
    print(f"run: estimated {run_estimate:.1f} s, took {run_s:.1f} s")
    print(f"judging: estimated {plan.judge.wall_s:.1f} s, took {judge_s:.1f} s")
    assert 0.5 <= run_s / run_estimate <= 2.0, (run_s, run_estimate)
    asked = [b for b in judged.battles if b.verdict_ab is not None]
    assert asked, "the two answers were identical: nothing was judged"
    assert 0.5 <= judge_s / plan.judge.wall_s <= 2.0, (judge_s, plan.judge.wall_s)

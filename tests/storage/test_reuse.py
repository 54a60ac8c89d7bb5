"""A run reuses a result another process stored while it was running (defect 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.golden import case_hash, load_dataset
from arena.models import register_fake
from arena.records.results import RunResult
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.unit


def test_a_result_stored_meanwhile_by_another_process_is_reused(
    tmp_path: Path, db_url: str
) -> None:
    script = register_fake("reuse", ["my own answer"], cycle=True)
    cases = [
        {"id": f"R-{i}", "input": f"question {i}", "category": "happy_path", "tier": "critical"}
        for i in (1, 2)
    ]
    (tmp_path / "golden.json").write_text(
        json.dumps({"name": "reuse", "available_tools": [], "test_cases": cases})
    )
    (tmp_path / "v.yaml").write_text("name: v\nmodel: {spec: 'fake:reuse'}\ntools: []\n")
    dataset = load_dataset(tmp_path / "golden.json")
    variant = load_variant(tmp_path / "v.yaml")
    other = Store(db_url)  # the other process's connection
    second = dataset.test_cases[1]

    def other_process_finishes_the_second_case(first: RunResult) -> None:
        if first.case_id == "R-1":
            other.save_result(
                RunResult(
                    run_id=first.run_id,
                    variant="v",
                    variant_hash=variant.version_hash,
                    case_id=second.id,
                    case_hash=case_hash(second),
                    repeat=0,
                    output="the other process's answer",
                )
            )

    report = run_suite(
        Store(db_url),
        dataset,
        [variant],
        RunOptions(
            concurrency=1, progress=False, on_result=[other_process_finishes_the_second_case]
        ),
    )
    assert [r.output for r in report.results] == ["my own answer", "the other process's answer"]
    assert report.reused == 1 and report.model_calls == 1 and len(script.calls) == 1
    assert len(Store(db_url).results(report.run_id)) == 2

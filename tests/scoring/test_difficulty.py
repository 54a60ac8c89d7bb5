"""The difficulty breakdown of `arena score`: pass figures per easy / medium / hard case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from arena.cli import main
from arena.golden import load_dataset
from arena.models import register_fake
from arena.runner import RunOptions, run_suite
from arena.scoring import aggregate, score_result
from arena.scoring._difficulty import difficulty_breakdown, difficulty_rows
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

CASES = [
    {
        "id": "E-1",
        "input": "easy one #E-1",
        "category": "happy_path",
        "difficulty": "easy",
        "expected_output_contains": ["ok"],
    },
    {
        "id": "E-2",
        "input": "easy two #E-2",
        "category": "happy_path",
        "difficulty": "easy",
        "expected_output_contains": ["ok"],
    },
    {
        "id": "H-1",
        "input": "hard one #H-1",
        "category": "multi_step",
        "difficulty": "hard",
        "expected_output_contains": ["ok"],
    },
    {
        "id": "H-P",
        "input": "hard pending #H-P",
        "category": "multi_step",
        "difficulty": "hard",
        "tier": "pending",
        "expected_output_contains": ["ok"],
    },
]


def _agent(messages: list[BaseMessage]) -> str:
    return "no" if "#E-2" in str(messages[-1].content) else "ok"  # fails one easy case


def _run(tmp_path: Path, store: Store) -> int:
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"name": "diff", "available_tools": [], "test_cases": CASES}))
    register_fake("diff-agent", [_agent], cycle=True)
    variant = Variant.model_validate(
        {"name": "v", "tools": [], "model": {"spec": "fake:diff-agent"}}
    )
    return run_suite(store, load_dataset(path), [variant], RunOptions(progress=False)).run_id


def test_breakdown_counts_counted_cases_per_difficulty(tmp_path: Path, store: Store) -> None:
    run_id = _run(tmp_path, store)
    dataset = store.run_dataset(run_id)
    results = store.results(run_id)
    scores = [score_result(r, dataset.case(r.case_id)) for r in results]
    levels = {c.id: c.difficulty.value for c in dataset.test_cases}
    breakdown = difficulty_breakdown(aggregate(scores, results), levels)["v"]
    assert list(breakdown) == ["easy", "hard"]  # no medium case; pending H-P left out
    assert breakdown["easy"].n_cases == 2 and breakdown["easy"].pass_rate == 0.5
    assert breakdown["hard"].n_cases == 1 and breakdown["hard"].cases_passed == 1
    assert difficulty_rows({"v": breakdown}) == [
        ["variant", "easy", "hard"],
        ["v", "50% (1/2)", "100% (1/1)"],
    ]


def test_arena_score_prints_the_breakdown(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = _run(tmp_path, Store(db_url))
    assert main(["score", str(run_id), "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "pass rate by difficulty" in out and "50% (1/2)" in out
    assert main(["score", str(run_id), "--db", db_url, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["by_difficulty"]["v"]["easy"]["pass_rate"] == 0.5
    assert main(["score", str(run_id), "--db", db_url, "--markdown"]) == 0
    assert "| v | 50% (1/2) | 100% (1/1) |" in capsys.readouterr().out

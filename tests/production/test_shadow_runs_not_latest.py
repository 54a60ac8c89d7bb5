"""A shadow run (production traces) is never "the latest run" of a golden command: ``arena
baseline save`` and ``arena score`` take the newest golden run, and name a shadow run only
when it is all there is (issue 41)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # end to end through the CLI, on scripted models

CASES = [
    {"id": "G-1", "input": "What is the capital of country number 1?", "category": "happy_path",
     "tier": "critical", "expected_output_contains": ["GOOD"]},
]  # fmt: skip


def _shadow(tmp_path: Path, db: list[str], candidate: str) -> None:
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(3))
    argv = ["shadow", "--traces", traces, "--candidate", candidate, "--judge",
            "fake:prefers-good/text", "--json", *db]  # fmt: skip
    assert main(argv) == 0


def test_baseline_save_and_score_skip_a_newer_shadow_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    db = ["--db", f"sqlite:///{tmp_path / 'arena.db'}"]
    candidate = variant_file(tmp_path, "cand", "better")
    dataset = tmp_path / "golden.json"
    dataset.write_text(json.dumps({"name": "g", "available_tools": [], "test_cases": CASES}))
    assert main(["run", "--variants", candidate, "--dataset", str(dataset), *db]) == 0
    _shadow(tmp_path, db, candidate)  # run 2, newer, holding the same variant
    capsys.readouterr()
    assert main(["baseline", "save", "cand", *db]) == 0
    out = capsys.readouterr().out
    assert "saved from run 1" in out and "dataset production" not in out
    assert main(["score", "--json", *db]) == 0
    assert json.loads(capsys.readouterr().out)["run_id"] == 1


def test_with_only_a_shadow_run_it_is_refused_by_name_unless_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    db = ["--db", f"sqlite:///{tmp_path / 'arena.db'}"]
    _shadow(tmp_path, db, variant_file(tmp_path, "cand", "better"))
    capsys.readouterr()
    assert main(["baseline", "save", "cand", *db]) == 2
    assert "only in shadow run 1" in capsys.readouterr().err
    assert main(["score", *db]) == 2
    assert "only shadow runs" in capsys.readouterr().err
    assert main(["score", "1", "--json", *db]) == 0  # named: it is scored
    assert json.loads(capsys.readouterr().out)["run_id"] == 1

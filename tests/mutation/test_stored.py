"""A mutation pass is stored, and ``arena health`` shows the dataset's latest score and its
survivors (the kitchen example on its scripted models, the CLI in this process)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main
from arena.golden import GoldenDataset
from arena.mutation import MutationOptions, latest_mutation_summary, mutation_lines, run_mutation
from arena.storage import Store
from arena.variants.variant import Variant
from tests.mutation.test_conversations import KITCHEN

pytestmark = pytest.mark.system


def test_a_pass_is_stored_with_its_survivors(
    desk: tuple[Variant, GoldenDataset], store: Store
) -> None:
    variant, dataset = desk
    assert latest_mutation_summary(store, "desk") is None
    report = run_mutation(store, dataset, variant, MutationOptions(operators=["tool_raises"]))
    summary = latest_mutation_summary(store, "desk")
    assert summary is not None and summary["score"] == report.score == pytest.approx(2 / 3)
    assert summary["survivors"] == [
        {
            "id": "tool_raises:check_status",
            "why_survived": "no case calls `check_status`: the original never called it "
            "on the 2 cases run",
        }
    ]
    [line, survivor] = mutation_lines(summary, "desk")
    assert line.startswith("mutation score of desk: 66.7%, 2 of 3 mutants killed (baseline, ")
    assert line.endswith("; 1 survivor of 3 mutants)")
    assert survivor.startswith("  survived tool_raises:check_status: no case calls")
    assert latest_mutation_summary(store, "kitchen") is None  # another dataset's


def test_health_shows_the_latest_mutation_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "kitchen"
    shutil.copytree(KITCHEN, folder)
    monkeypatch.chdir(folder)
    common = ["--fake-scripts", "fake_models.yaml"]
    data = ["--dataset", "golden/kitchen.json", "--cases", "K-1,K-3"]
    variants = ["variants/baseline.yaml", "variants/small-model.yaml"]
    assert main([*common, "run", "--variants", *variants, *data]) == 0
    assert main([*common, "judge", "--judge", "local:qwen2.5-coder-1.5b/text"]) == 0
    capsys.readouterr()
    assert main([*common, "health", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mutation"] is None
    mutate = ["mutate", "--variant", variants[0], *data, "--operators", "tool_raises"]
    assert main([*common, *mutate]) == 0
    capsys.readouterr()
    assert main([*common, "health", "1", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["mutation"]
    assert shown["dataset"] == "kitchen-helper-golden" and shown["variant"] == "baseline"
    assert shown["score"] == pytest.approx(2 / 3)  # scale_recipe: no case of the two calls it
    assert [s["id"] for s in shown["survivors"]] == ["tool_raises:scale_recipe"]
    assert main([*common, "health", "1"]) == 0
    assert "mutation score of kitchen-helper-golden: 66.7%, 2 of 3 mutants killed (baseline, " in (
        capsys.readouterr().out
    )

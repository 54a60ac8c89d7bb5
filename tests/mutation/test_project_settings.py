"""Where a team asks for mutation testing: ``arena.yaml``'s ``mutation:`` gives ``arena
mutate`` its minimum score and operators, and ``arena init-ci --mutation`` adds the pass to
the nightly workflow."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from arena.cli import main
from tests.mutation.conftest import DESK

pytestmark = pytest.mark.system

MUTATE = ["--fake-scripts", "fake_models.yaml", "mutate", "--variant", "variants/baseline.yaml",
          "--dataset", "golden/desk.json", "--json"]  # fmt: skip


@pytest.fixture
def desk_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "desk"
    shutil.copytree(DESK, folder)
    monkeypatch.chdir(folder)
    return folder


def test_arena_yaml_sets_the_min_score_and_operators(
    desk_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (desk_folder / "arena.yaml").write_text(
        "mutation:\n  min_score: 0.9\n  operators: [tool_raises]\n"
    )
    assert main(MUTATE) == 1  # 2 of 3 killed: below 0.9
    report = json.loads(capsys.readouterr().out)
    assert {m["operator"] for m in report["mutants"]} == {"tool_raises"}
    assert main([*MUTATE, "--min-score", "0.5"]) == 0  # the flag wins


def test_a_bad_mutation_section_is_bad_input(
    desk_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (desk_folder / "arena.yaml").write_text("mutation:\n  min_score: 2\n")
    assert main(MUTATE) == 2
    err = capsys.readouterr().err
    assert "arena.yaml" in err and "mutation.min_score" in err
    (desk_folder / "arena.yaml").write_text("mutation:\n  operators: [tool_melts]\n")
    assert main(MUTATE) == 2
    assert "unknown mutation operator 'tool_melts'" in capsys.readouterr().err
    assert not (desk_folder / "arena.db").exists()


def test_init_ci_adds_a_nightly_mutation_pass(tmp_path: Path) -> None:
    assert main(["init-ci", "--dir", str(tmp_path), "--mutation", "variants/baseline.yaml"]) == 0
    nightly = yaml.safe_load((tmp_path / ".github/workflows/arena-nightly.yml").read_text())
    steps = nightly["jobs"]["nightly"]["steps"]
    [step] = [s for s in steps if s.get("id") == "mutate"]
    assert "arena mutate --config arena.yaml --variant variants/baseline.yaml" in step["run"]
    assert steps[-1]["env"] == {"MUTATE_EXIT": "${{ steps.mutate.outputs.exit }}"}
    assert "\n  min_score: null " in (tmp_path / "arena.yaml").read_text()
    plain = tmp_path / "plain"
    assert main(["init-ci", "--dir", str(plain)]) == 0
    text = (plain / ".github/workflows/arena-nightly.yml").read_text()
    assert "arena mutate" not in text and "__ARENA" not in text


def test_the_gate_rules_of_arena_yaml_decide_what_blocks(
    desk_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raises = [*MUTATE, "--operators", "tool_raises"]
    assert main(raises) == 0
    default = {m["id"]: m for m in json.loads(capsys.readouterr().out)["mutants"]}
    assert "critical_broken D-1" in default["tool_raises:open_ticket"]["blocked_by"]
    (desk_folder / "arena.yaml").write_text("rules:\n  block: []\n")  # every rule only warns
    assert main(raises) == 0
    mutants = {m["id"]: m for m in json.loads(capsys.readouterr().out)["mutants"]}
    assert mutants["tool_raises:open_ticket"]["blocked_by"] == []
    assert mutants["tool_raises:open_ticket"]["killed_by"] == ["D-1"]  # D-1 still broke


def test_a_golden_set_the_variant_fails_is_bad_input(
    desk_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = json.loads((desk_folder / "golden" / "desk.json").read_text())
    for case in golden["test_cases"]:
        case["expected_output_contains"] = ["a refund"]
    (desk_folder / "golden" / "desk.json").write_text(json.dumps(golden))
    assert main(MUTATE) == 2
    err = capsys.readouterr().err
    assert "passes none of the 2 cases selected" in err and "golden/desk.json" in err
    assert not (desk_folder / "reports").exists()


def test_arena_plan_plans_a_mutation_pass(
    desk_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = ["--fake-scripts", "fake_models.yaml", "plan", "--mutate", "--no-measure", "--variants",
            "variants/baseline.yaml", "--dataset", "golden/desk.json", "--json"]  # fmt: skip
    assert main(plan) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["mutants"] == 19 and doc["by_operator"]["tools_swapped"] == 3
    assert doc["at_most"]["tasks"] == 38 and doc["original"]["to_run"] == 2
    assert not (desk_folder / "arena.db").exists()

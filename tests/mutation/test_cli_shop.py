"""``arena mutate`` in the shop team's folder (issue 39's trial), the CLI called in-process:
what it says when the score is below the minimum, where a mistyped operator came from, and
the plan after a pass."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main
from tests.mutation.conftest import SHOP

pytestmark = pytest.mark.system

MUTATE = ["--fake-scripts", "fake_models.yaml", "mutate", "--variant", "variants/baseline.yaml",
          "--dataset", "golden/shop.json", "--db", "sqlite:///arena.db"]  # fmt: skip


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "shop"
    shutil.copytree(SHOP, folder)
    monkeypatch.chdir(folder)
    return folder


def test_a_score_below_the_minimum_says_so(team: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*MUTATE, "--operators", "tool_raises,tool_empty", "--min-score", "0.9", "--json"]
    assert main(argv) == 1  # the comma form of --operators, like --cases
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert {m["operator"] for m in report["mutants"]} == {"tool_raises", "tool_empty"}
    assert (report["score"], report["min_score"], report["passed"]) == (0.5, 0.9, False)
    killed = sum(m["killed"] for m in report["mutants"])
    assert f"mutation score 50% ({killed} of {report['counted']} mutants killed) is below " in err
    assert "is below --min-score 90%" in err and 2 * killed == report["counted"]


def test_a_mistyped_operator_in_arena_yaml_names_the_file_and_field(
    team: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (team / "arena.yaml").write_text("mutation:\n  operators: [tool_raise]\n")
    assert main(MUTATE) == 2
    err = capsys.readouterr().err
    assert "arena.yaml, field mutation.operators: unknown mutation operator 'tool_raise'" in err
    assert not (team / "arena.db").exists()


def test_the_plan_after_a_pass_counts_what_is_stored(
    team: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = [*MUTATE, "--plan", "--no-measure", "--json"]
    assert main(plan) == 0
    before = json.loads(capsys.readouterr().out)
    assert before["stored"] == 0 and before["at_most"]["tasks"] > 0
    assert main([*MUTATE, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["model_calls"] > 0
    assert main(plan) == 0
    after = json.loads(capsys.readouterr().out)
    assert after["stored"] == after["mutants"] == before["mutants"]
    assert after["original"]["to_run"] == 0
    assert after["at_least"] == after["at_most"] == {
        "tasks": 0, "calls": 0, "cost_usd": 0.0, "wall_s": 0.0
    }  # fmt: skip
    assert main([*MUTATE, "--json"]) == 0  # and the rerun indeed sends nothing
    assert json.loads(capsys.readouterr().out)["model_calls"] == 0


def test_health_after_a_pass_shows_its_score_though_no_run_is_judged(
    team: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*MUTATE, "--operators", "tool_raises", "tool_empty", "--json"]) == 0
    capsys.readouterr()
    assert main(["health", "--db", "sqlite:///arena.db"]) == 0
    out = capsys.readouterr().out
    assert "has no battles: run `arena judge" in out
    assert "mutation score of shop-golden: 50%, " in out and " mutants killed (baseline" in out
    assert "survived tool_empty:check_stock: S-1 expects what `check_stock` returned" in out


def test_a_dataset_the_variant_fails_says_its_run_is_kept(
    team: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shop = json.loads((team / "golden" / "shop.json").read_text())
    for case in shop["test_cases"]:
        case["expected_output_contains"] = ["zzz-never"]
    (team / "golden" / "allfail.json").write_text(json.dumps(shop))
    assert main([*MUTATE[:-3], "golden/allfail.json", *MUTATE[-2:]]) == 2
    err = capsys.readouterr().err
    assert "passes none of the 5 cases selected" in err
    assert "the original's run 1 is kept, a normal cached run: `arena score 1`" in err
    assert not (team / "reports").exists()


def test_runs_hides_the_mutants_runs_and_says_how_many(
    team: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*MUTATE, "--operators", "tool_raises", "--json"]) == 0
    mutants = {m["id"] for m in json.loads(capsys.readouterr().out)["mutants"]}
    runs = ["runs", "--db", "sqlite:///arena.db"]
    assert main([*runs, "--json"]) == 0
    (original,) = json.loads(capsys.readouterr().out)  # the original's run alone
    assert "mutation" not in original["config"]
    assert main([*runs, "--mutants", "--json"]) == 0
    every = json.loads(capsys.readouterr().out)
    batches = [r for r in every if r["id"] != original["id"]]
    assert {r["config"]["mutation"]["mutant"] for r in batches} == mutants
    assert {r["config"]["mutation"]["of"] for r in batches} == set(original["config"]["variants"])
    assert main(runs) == 0
    out = capsys.readouterr().out
    assert f"{len(batches)} runs of `arena mutate`'s mutants hidden (`arena runs --mutants`" in out
    assert ".tool_raises." not in out
    assert main([*runs, "--mutants"]) == 0
    out = capsys.readouterr().out
    assert ".tool_raises.check_stock" in out and "hidden" not in out

"""``arena mutate`` as a team runs it: a copy of the desk team's folder (its own package,
variant, golden set and scripted models) is the working directory, the CLI a subprocess."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.examples.test_own_agent_example import User
from tests.mutation.conftest import DESK

pytestmark = pytest.mark.system

MUTATE = ("mutate", "--variant", "variants/baseline.yaml", "--dataset", "golden/desk.json")


@pytest.fixture
def team(tmp_path: Path) -> User:
    folder = tmp_path / "desk"
    shutil.copytree(DESK, folder)
    return User(folder)


def test_mutate_reports_the_shape_and_exits_on_the_min_score(team: User) -> None:
    report = team.json(*MUTATE, "--min-score", "0.9", code=1)  # 10 of 16 is below 0.9
    assert report["score"] == pytest.approx(0.625)
    for mutant in report["mutants"]:
        assert {"id", "operator", "target", "killed", "killed_by", "why_survived"} <= set(mutant)
        assert isinstance(mutant["killed"], bool) and isinstance(mutant["killed_by"], list)
        assert (mutant["why_survived"] is None) == (mutant["killed"] or mutant["equivalent"])
    by_id = {m["id"]: m for m in report["mutants"]}
    assert by_id["tool_raises:open_ticket"]["killed_by"] == ["D-1"]
    assert by_id["tool_stale:lookup_user"]["why_survived"] == (
        "no case expects `lookup_user`'s output: D-2 checks only that `lookup_user` was called"
    )
    markdown = (team.folder / "reports" / "mutate.md").read_text()
    assert "tool_stale:lookup_user" in markdown
    assert "- case D-2 of `golden/desk.json`: add `42` to `expected_output_contains`" in markdown

    again = team.json(*MUTATE, "--min-score", "0.6")  # at or above the score: exit 0
    assert again["model_calls"] == 0 and again["score"] == report["score"]


def test_bad_input_exits_2_and_writes_nothing(team: User) -> None:
    team.arena(*MUTATE, "--operators", "tool_melts", code=2)
    team.arena(*MUTATE, "--min-score", "1.5", code=2)
    broken = json.loads((team.folder / "golden" / "desk.json").read_text())
    broken["test_cases"][0]["tier"] = "urgent"
    (team.folder / "golden" / "bad.json").write_text(json.dumps(broken))
    team.arena(*MUTATE[:-1], "golden/bad.json", code=2)
    assert not (team.folder / "arena.db").exists()
    assert not (team.folder / "reports").exists()


def test_the_plan_counts_mutants_and_runs_nothing(team: User) -> None:
    plan = team.json(
        *MUTATE, "--plan", "--no-measure", "--operators", "tool_raises", "tool_removed"
    )  # --no-measure: no local model is started to time it
    assert plan["mutants"] == 6 and plan["by_operator"] == {"tool_raises": 3, "tool_removed": 3}
    assert plan["at_most"]["tasks"] == 12 and plan["at_least"]["tasks"] == 12  # 2 cases, batch 2
    assert plan["original"]["to_run"] == 2
    assert not (team.folder / "arena.db").exists()

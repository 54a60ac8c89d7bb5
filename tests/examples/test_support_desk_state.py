"""The support desk's state after each superstep (issue 40, item 3) through the real runner
on scripted models: kept for a failed case only, stored with its result, printed by
``arena show RESULT --state [STEP]`` (text and JSON, exit 2 when there is none), and the
path exported for agentevals by ``arena show --agentevals``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.storage import Store
from tests.examples.test_support_desk_routes import DATASET, DESK, SCRIPTS, _run

pytestmark = pytest.mark.unit


def test_a_failed_case_keeps_its_state_after_each_superstep_and_a_passed_one_none(
    db_url: str,
) -> None:
    runs = _run(db_url, "desk-strict.yaml", ["S-1", "S-3"])
    (passed, passed_score), (failed, failed_score) = runs["S-1"], runs["S-3"]
    assert passed_score.passed and passed.states is None
    assert not failed_score.passed and failed.states is not None
    assert [(s.step, s.nodes) for s in failed.states.steps] == [
        (-1, []),
        (0, ["__start__"]),
        (1, ["router"]),
        (2, ["decline"]),
    ]
    routed = failed.states.at(1)
    assert routed is not None and routed.values["route"] == "decline"  # the router's decision
    assert routed.keys == ["messages", "route"]
    store = Store(db_url)
    assert store.result(failed.id or 0).states == failed.states
    assert store.result(passed.id or 0).states is None
    # a run's results load without their states (one query per result avoided)
    assert all(r.states is None for r in store.results(failed.run_id or 0))


@pytest.mark.system  # arena show loads the version story and judge views: over a unit's CPU
def test_show_state_prints_each_step_one_step_and_json(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = _run(db_url, "desk-strict.yaml", ["S-1", "S-3"])
    failed, passed = runs["S-3"][0].id, runs["S-1"][0].id
    capsys.readouterr()
    assert main(["show", str(failed), "--state", "--db", db_url]) == 0
    text = capsys.readouterr().out
    assert (
        "superstep 1  after router\n    keys: messages, route\n    route:\n        decline" in text
    )
    assert "superstep 2  after decline" in text and "ai: Sorry, this desk only helps" in text
    assert main(["show", str(failed), "--state", "2", "--json", "--db", db_url]) == 0
    shown = json.loads(capsys.readouterr().out)
    (step,) = shown["steps"]
    assert step["step"] == 2 and step["nodes"] == ["decline"]
    assert step["values"]["route"] == "decline"  # one step: every value
    assert list(step["changed"]) == ["messages"]  # what the decline node wrote
    assert main(["show", str(failed), "--state", "9", "--db", db_url]) == 2
    assert "no state after superstep 9 (kept: -1..2)" in capsys.readouterr().err
    assert main(["show", str(passed), "--state", "--db", db_url]) == 2
    assert f"result {passed} has no saved state" in capsys.readouterr().err


@pytest.mark.system
def test_show_agentevals_prints_the_graph_trajectory(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result, _ = _run(db_url, "desk.yaml", ["S-1"])["S-1"]
    capsys.readouterr()
    assert main(["show", str(result.id), "--agentevals", "--db", db_url]) == 0
    trajectory = json.loads(capsys.readouterr().out)
    assert trajectory["steps"] == [
        [
            "__start__",
            "router",
            "support",
            "support:__start__",
            "support:agent",
            "support:tools",
            "support:agent",
            "audit",
        ]
    ]
    assert trajectory["inputs"] == [
        {"__start__": {"messages": [{"role": "user", "content": "Where is my order 4471?"}]}}
    ]
    answer = trajectory["results"][0]["messages"][0]
    assert answer["role"] == "assistant" and "4471" in answer["content"]


def test_lint_refuses_a_reference_path_naming_a_node_the_graph_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(DATASET.read_text(encoding="utf-8"))
    reference = {"steps": [["__start__", "router", "support", "support:__start__", "audit"]]}
    doc["test_cases"][0]["expected_graph_trajectory"] = reference
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc), encoding="utf-8")
    reference["steps"][0][-1] = "auditor"
    doc["test_cases"][0]["expected_graph_trajectory"] = reference
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    variant = str(DESK / "variants" / "desk.yaml")
    lint = ["--fake-scripts", str(SCRIPTS), "golden", "lint", "--variants", variant]
    assert main([*lint, "--dataset", str(good)]) == 0
    capsys.readouterr()
    assert main([*lint, "--dataset", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"file {bad}, case S-1, field expected_graph_trajectory.steps: unknown node(s) " in err
    assert "auditor" in err

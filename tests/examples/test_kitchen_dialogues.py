"""examples/own-agent/golden/kitchen-dialogues.json from the CLI, offline (scripted models):
the scripted conversations run, their dialogues are stored, a rerun sends no model call and
`arena show` prints their results; all three cases (KD-3's user simulated by the scripted
model) run, score, judge and gate end to end."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.examples.test_own_agent_example import EXAMPLE, User

pytestmark = pytest.mark.system


@pytest.fixture
def user(tmp_path: Path) -> User:
    folder = tmp_path / "own-agent"
    shutil.copytree(EXAMPLE, folder)
    return User(folder)


SCRIPTED = ["--dataset", "golden/kitchen-dialogues.json", "--cases", "KD-1,KD-2"]
VARIANTS = ["--variants", "variants/baseline.yaml", "variants/small-model.yaml"]


def test_scripted_dialogues_run_store_rerun_free_and_show(user: User) -> None:
    run = user.json("run", *VARIANTS, *SCRIPTED)
    results = {(r["variant"], r["case_id"]): r for r in run["results"]}
    assert len(results) == 4 and all(r["error"] is None for r in results.values())
    good = results[("baseline", "KD-1")]["dialogue"]
    assert [t["user"] for t in good["turns"]] == [
        "I want to bake bread with flour. Can you help me with the quantities?",
        "2 cups of flour. How many grams is that?",  # the `when` held: it asked
        "And the oven says 180 C: what is that in Fahrenheit?",
    ]
    assert good["ended_by"] == "script" and [t["steps"] for t in good["turns"]] == [[], [0], [1]]
    assert results[("baseline", "KD-1")]["output"] == "180 °C is 356 °F."
    hasty = results[("small-model", "KD-1")]["dialogue"]  # converted before asking
    assert hasty["turns"][0]["steps"] == [0]
    assert hasty["turns"][1]["user"] == "My recipe uses 2 cups of flour: how many grams is that?"

    again = user.json("run", *VARIANTS, *SCRIPTED, "--rerun")
    assert again["run_id"] != run["run_id"] and again["model_calls"] == 0
    assert [r["dialogue"]["turns"][-1]["reply"] for r in again["results"]] == [
        r["dialogue"]["turns"][-1]["reply"] for r in run["results"]
    ]

    hasty_id = str(results[("small-model", "KD-1")]["id"])
    user.arena(
        "golden", "add", "--from-result", hasty_id, "--reason", "converts before asking",
        "--dataset", "golden/kitchen-dialogues.json", "--id", "KD-4",
        "--input", "Bread day! Help me with the flour quantities, please.",
    )  # fmt: skip
    grown = json.loads((user.folder / "golden" / "kitchen-dialogues.json").read_text())
    (added,) = [c for c in grown["test_cases"] if c["id"] == "KD-4"]
    assert added["tier"] == "pending"
    assert added["conversation"]["turns"][0]["when"] == {"contains": [["how many", "how much"]]}

    shown = user.json("show", str(results[("baseline", "KD-1")]["id"]))
    assert shown["dialogue"]["turns"][2]["reply"] == "180 °C is 356 °F."
    # The text of a conversation, for both variants and both cases (one rendering: the two
    # other results would add processes, not code paths).
    for result in (results[("baseline", "KD-1")], results[("small-model", "KD-2")]):
        text = user.arena("show", str(result["id"]))
        turns = len(result["dialogue"]["turns"])
        assert f"conversation: {turns} turn(s)" in text
        assert [f"--- turn {i} (" in text for i in range(1, turns + 1)] == [True] * turns


def test_a_bad_user_model_exits_2_naming_the_flag(user: User) -> None:
    argv = ["run", *VARIANTS, *SCRIPTED, "--user-model", "nope"]
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "--fake-scripts", "fake_models.yaml", *argv],
        cwd=user.folder,
        env=user.env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and "--user-model" in done.stderr
    assert not (user.folder / "arena.db").exists()


def test_the_dialogue_dataset_loads_with_its_conversations(user: User) -> None:
    doc = json.loads((user.folder / "golden" / "kitchen-dialogues.json").read_text())
    scripted = [c for c in doc["test_cases"] if "turns" in c["conversation"]]
    simulated = [c for c in doc["test_cases"] if "user" in c["conversation"]]
    assert any("when" in t for c in scripted for t in c["conversation"]["turns"])
    assert len(simulated) == 1
    lint = user.json("golden", "lint", "golden/kitchen-dialogues.json")
    assert lint["errors"] == 0


def test_scripted_and_simulated_dialogues_score_judge_and_gate_from_the_cli(user: User) -> None:
    """The whole set, KD-3's user played by the scripted model: the gate blocks the small
    model, which converts before asking (turn 1 of KD-1 broken) and never calls
    oven_temperature, and names both."""
    db = f"sqlite:///{user.folder / 'gate.db'}"
    report = user.json(
        "gate", "--baseline", "variants/baseline.yaml", "--candidate",
        "variants/small-model.yaml", "--dataset", "golden/kitchen-dialogues.json",
        "--tier", "all", "--db", db, code=1,
    )  # fmt: skip
    blocks = {r["case_id"]: r["check"] for r in report["regression"]["reasons"]
              if r["rule"] == "critical_broken"}  # fmt: skip
    assert set(blocks) == {"KD-1", "KD-2"}
    # the small model guesses the temperature: a missed required action, then turn 1
    assert blocks["KD-1"].startswith("oven_temperature was never called")
    assert "turn 1: reply missing 'how many' or 'how much'" in blocks["KD-1"]
    compared = {r["case_id"] for r in report["regression"]["reasons"] if r["case_id"]}
    assert "KD-3" in compared  # the simulated conversation was scored on both sides

    from arena.storage import Store

    store = Store(db)
    results = {(r.variant, r.case_id): r for r in store.results(report["run_id"])}
    simulated = results[("baseline", "KD-3")].dialogue
    assert simulated is not None and simulated.ended_by == "user"
    assert simulated.user_model == "local:qwen2.5-coder-1.5b" and simulated.simulator_calls >= 2
    assert simulated.turns[1].user.startswith("We are 6 people")  # the fact, once asked
    assert simulated.simulator_error is None and results[("baseline", "KD-3")].error is None

    judged = user.json(
        "judge", str(report["run_id"]), "--judge", "local:qwen2.5-coder-1.5b/text",
        "--db", db,
    )  # fmt: skip
    assert judged["simulator_errors"] == 0
    battles = store.battles(report["run_id"], judged["judge_key"])
    assert {b.case_id for b in battles} == {"KD-1", "KD-2", "KD-3"}
    assert all(b.error is None for b in battles)

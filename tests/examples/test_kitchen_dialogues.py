"""examples/own-agent/golden/kitchen-dialogues.json from the CLI, offline (scripted models):
the scripted conversations run, their dialogues are stored, a rerun sends no model call and
`arena show` prints their results. The simulated-user case (KD-3) needs the simulated user's
module (tests/conversations cover it); these tests run the scripted cases KD-1 and KD-2."""

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

    shown = user.json("show", str(results[("baseline", "KD-1")]["id"]))
    assert shown["dialogue"]["turns"][2]["reply"] == "180 °C is 356 °F."
    for result in run["results"]:
        assert "final answer" in user.arena("show", str(result["id"]))


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

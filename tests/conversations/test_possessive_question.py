"""Through `arena run` (scripted models): an agent that asks "What is the passenger's name?"
has asked for the simulated user's private fact ``passenger``, so the user's answer is an
ordinary message, the dialogue runs to the booking and the case counts (user trial after
issue 36: the run recorded a false "leak" and the case left every pass figure)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.system  # a whole run through the CLI: over 0.5 s of CPU

SCRIPTS = """\
scripts:
  desk:
    - system: you play a user
      when: [passenger]
      replies: ["The passenger is Carla Diaz, please book it."]
    - system: you play a user
      replies: ["###STOP###"]
    - when: [carla]
      replies: ["Booked TA-303 for Carla Diaz, booking BK-303."]
    - replies: ["TA-303 flies Rome to Madrid for 140 EUR. What is the passenger's name?"]
"""
CASE = {
    "id": "TC-2",
    "input": "I want to fly from Rome to Madrid.",
    "category": "happy_path",
    "tier": "critical",
    "expected_output_contains": ["BK-303"],
    "conversation": {
        "user": {
            "persona": "A busy traveller who writes short messages.",
            "goal": "Get a flight from Rome to Madrid booked.",
            "facts": {"passenger": "Carla Diaz"},
            "max_turns": 4,
        }
    },
}


def test_the_passengers_name_is_asking_so_the_dialogue_runs_to_the_booking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scripts, dataset, variant = tmp_path / "s.yaml", tmp_path / "d.json", tmp_path / "v.yaml"
    scripts.write_text(SCRIPTS)
    dataset.write_text(
        json.dumps({"name": "d", "available_tools": ["calculate"], "test_cases": [CASE]})
    )
    variant.write_text("name: desk\nmodel: {spec: 'fake:desk'}\ntools: [calculate]\n")
    argv = run_argv(variant, dataset, f"sqlite:///{tmp_path / 'a.db'}", "--json")
    assert main(["--fake-scripts", str(scripts), *argv, "--user-model", "fake:desk"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["results"]
    dialogue = result["dialogue"]
    assert dialogue["simulator_error"] is None, dialogue["simulator_error"]
    assert [t["user"] for t in dialogue["turns"]] == [
        CASE["input"],
        "The passenger is Carla Diaz, please book it.",
    ]
    assert result["output"] == "Booked TA-303 for Carla Diaz, booking BK-303."

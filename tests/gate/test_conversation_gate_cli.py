"""`arena gate` end to end on a scripted three-turn conversation with scripted models: a
candidate that acts one turn early (turn 3 broken, turn 1 and the end state unchanged) fails
the gate; the baseline passes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, ToolMessage

from arena.cli import main
from arena.models import register_fake
from tests.gate.conftest import Project
from tests.gate.test_gate_cli import gate

pytestmark = pytest.mark.unit

DIALOGUE = {
    "id": "REFUND-01",
    "input": "I want a refund for my blender.",
    "category": "multi_step",
    "tier": "critical",
    "expected_tools": ["calculate"],
    "expected_output_contains": ["refund"],
    "conversation": {
        "turns": [{"user": "It's order 4471."}, {"user": "Yes, please go ahead."}],
        "expect": [
            {
                "turn": 1,
                "description": "asks for the order number before refunding",
                "contains": [["order number"]],
                "forbidden_tools": ["calculate"],
            },
            {"turn": 3, "description": "refunds once confirmed", "tools": ["calculate"]},
        ],
    },
}
SINGLE = {
    "id": "HP-1",
    "input": "Say alpha #HP-1",
    "category": "happy_path",
    "tier": "critical",
    "expected_output_contains": ["alpha"],
}
REFUND = {"tool": "calculate", "args": {"expression": "44 + 71"}}


def shop(refund_on: str) -> Any:
    """The shop assistant: asks for the order, then refunds (a tool call) when the user's
    message holds ``refund_on``."""

    def reply(messages: list[BaseMessage]) -> Any:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            return f"Refund of {last.content} issued."
        text = str(last.content).lower()
        if "#hp-1" in text:
            return "alpha"
        if refund_on in text:
            return REFUND
        if "4471" in text:
            return "Order 4471 found. Shall I refund it?"
        if "go ahead" in text:
            return "Refund of 115 issued."
        return "Sure. What is your order number?"

    return reply


def _project(root: Path) -> Project:
    project = Project(root)
    project.dataset.write_text(
        json.dumps(
            {
                "name": "shop-dialogues",
                "available_tools": ["calculate", "search_web"],
                "test_cases": [DIALOGUE, SINGLE],
            }
        )
    )
    for name, refund_on in (("base", "go ahead"), ("early", "4471")):
        register_fake(f"shop-{name}", [shop(refund_on)], cycle=True)
        (project.variants / f"{name}.yaml").write_text(
            f"name: {name}\nmodel: {{spec: 'fake:shop-{name}'}}\ntools: [calculate]\n"
            "system_prompt: Help the customer.\n"
        )
    project.config()
    return project


def test_the_gate_fails_a_candidate_that_breaks_turn_three(tmp_path: Path, db_url: str) -> None:
    project = _project(tmp_path)
    code, doc, md = gate(
        project, db_url, "--baseline", "base", "--candidate", "early", "--judge", "none"
    )
    assert code == 1 and not doc["passed"], md
    regression = doc["regression"]
    assert regression["broken_cases"] == ["REFUND-01"]
    [why] = [r for r in regression["reasons"] if r["rule"] == "critical_broken"]
    assert why["severity"] == "block" and why["kind"] == "trajectory"
    assert why["check"].startswith("turn 3: expected a call to calculate")
    assert "turn 3: expected a call to calculate" in md


def test_turn_one_still_passes_in_the_stored_scores(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path)
    code, doc, _ = gate(
        project, db_url, "--baseline", "base", "--candidate", "early", "--judge", "none"
    )
    assert code == 1
    capsys.readouterr()
    assert main(["score", str(doc["run_id"]), "--format", "json", "--db", db_url]) == 0
    scored = json.loads(capsys.readouterr().out)
    turns = {
        c["variant"]: {t["turn"]: t["passed"] for t in c["details"]["turns"]["turns"]}
        for c in scored["cases"]
        if c["case_id"] == "REFUND-01"
    }
    assert turns == {"early": {1: True, 3: False}, "base": {1: True, 3: True}}


def test_the_baseline_passes_the_gate(tmp_path: Path, db_url: str) -> None:
    project = _project(tmp_path)
    code, doc, md = gate(
        project, db_url, "--baseline", "base", "--candidate", "base", "--judge", "none"
    )
    assert code == 0 and doc["passed"], md
    assert doc["regression"]["reasons"] == []

"""A team's own tool that raises on every call fails the gate (issue 36, finding 1): the shipped
example's LangGraph agent (a ``ToolNode`` that turns the exception into an error message) still
answers with the right number, but the action never happened. Before, the raised call
satisfied ``expected_tools`` and the gate passed ("tool changed: scale_recipe")."""

from __future__ import annotations

import json

import pytest

from tests.examples.test_own_agent_example import User
from tests.examples.test_own_agent_versions import _edit

pytestmark = pytest.mark.system

RAISES = (
    "    if servings_from <= 0",
    '    raise KeyError("recipe book offline")\n    if servings_from <= 0',
)
REASON = "scale_recipe was called but raised KeyError"


def test_a_tool_that_raises_on_every_call_fails_the_gate(gated: User) -> None:
    _edit(gated.folder, "kitchen/tools.py", *RAISES)
    report = gated.json("gate", code=1)
    assert report["passed"] is False
    assert "tool changed: scale_recipe" in report["version_changes"]
    assert any("K-2" in failure for failure in report["failures"]), report["failures"]
    [why] = [
        r
        for r in report["regression"]["reasons"]
        if r["rule"] == "critical_broken" and r["case_id"] == "K-2"
    ]
    assert why["kind"] == "trajectory" and why["check"].startswith(REASON), why
    markdown = (gated.folder / "reports" / "gate.md").read_text()
    assert "K-2" in markdown and REASON in markdown


def test_the_score_names_the_raised_call(gated: User) -> None:
    _edit(gated.folder, "kitchen/tools.py", *RAISES)
    gated.arena("run", "--variants", "variants/baseline.yaml", "--dataset", "golden/kitchen.json")
    scored = gated.json("score")
    [k2] = [c for c in scored["cases"] if c["case_id"] == "K-2"]
    assert not k2["passed"]
    reasons = [r["text"] if isinstance(r, dict) else r for r in k2["fail_reasons"]]
    assert REASON in reasons, reasons
    assert json.dumps(k2["details"]["trajectory"]["tools"]) == '["scale_recipe (failed)"]'


def test_an_unavailable_tool_fails_the_conversation_and_says_why(gated: User) -> None:
    """Finding 3: without oven_temperature the agent still calls it and claims 356 °F; the
    critical conversation fails, naming the missed action and why, at the turn and overall."""
    db = f"sqlite:///{gated.folder / 'dialogues.db'}"
    report = gated.json(
        "gate", "--baseline", "variants/baseline.yaml", "--candidate", "variants/no-oven.yaml",
        "--dataset", "golden/kitchen-dialogues.json", "--cases", "KD-1", "--judge", "none",
        "--db", db, code=1,
    )  # fmt: skip
    [why] = [r for r in report["regression"]["reasons"] if r["rule"] == "critical_broken"]
    refused = "was refused: the tool is unavailable to this variant"
    assert why["case_id"] == "KD-1" and why["kind"] == "trajectory"
    assert why["check"].startswith(f"oven_temperature was called but {refused}"), why
    assert (
        f"oven_temperature was called but {refused}"
        in (gated.folder / "reports" / "gate.md").read_text()
    )
    scored = gated.json("score", str(report["run_id"]), "--db", db)
    [kd1] = [c for c in scored["cases"] if c["variant"] == "no-oven"]
    reasons = [r["text"] if isinstance(r, dict) else r for r in kd1["fail_reasons"]]
    assert f"turn 3: expected a call to oven_temperature; its call {refused}" in reasons

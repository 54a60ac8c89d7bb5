"""The shipped example's gate after an edit to the agent's code, a tool, or a scripted reply:
the gate runs the agent again and fails what broke. Before, the version hashed only the variant
file, so the gate reused the stored answers and passed ("resumed; results reused")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.examples.test_own_agent_example import User

pytestmark = pytest.mark.system


def _edit(folder: Path, relative: str, old: str, new: str) -> None:
    path = folder / relative
    text = path.read_text()
    assert old in text, relative
    path.write_text(text.replace(old, new))


def test_an_edit_to_the_agents_code_is_run_and_fails_the_gate(gated: User) -> None:
    _edit(
        gated.folder,
        "kitchen/agent.py",
        'return {"messages": [await model.ainvoke([system, *state["messages"]])]}',
        'reply = await model.ainvoke([system, *state["messages"]])\n'
        '        return {"messages": [reply if reply.tool_calls else AIMessage("Not sure.")]}',
    )
    report = gated.json("gate", code=1)
    assert report["passed"] is False
    assert "agent code changed: kitchen/agent.py" in report["version_changes"]
    markdown = (gated.folder / "reports" / "gate.md").read_text()
    assert "agent code changed: kitchen/agent.py" in markdown and "K-1" in markdown
    assert any("cannot be made again" in note for note in report["notes"])


def test_an_edit_to_a_scripted_reply_is_run_and_fails_the_gate(gated: User) -> None:
    _edit(gated.folder, "fake_models.yaml", "weigh about 240 g", "weigh about 200 g")
    report = gated.json("gate", code=1)
    assert any("K-1" in failure for failure in report["failures"])
    assert any(c.startswith("model changed: model") for c in report["version_changes"])


def test_a_tool_edit_makes_a_new_version_that_run_and_show_explain(gated: User) -> None:
    _edit(gated.folder, "kitchen/tools.py", '"servings must be positive"', '"servings > 0"')
    out = gated.arena(
        "run", "--variants", "variants/baseline.yaml", "--dataset", "golden/kitchen.json"
    )
    assert "baseline: agent code changed: kitchen/tools.py; tool changed: scale_recipe" in out
    assert "0 results reused" in out
    again = gated.json(
        "run", "--variants", "variants/baseline.yaml", "--dataset", "golden/kitchen.json"
    )
    assert again["resumed"] and again["version_changes"] == {"baseline": []}
    shown = gated.arena("show", str(again["results"][0]["id"]))
    assert "tool changed: scale_recipe" in shown

"""Against a baseline file, a tool or graph node the baseline had and the candidate lost is a
regression (exit 1, naming the case), not bad input (exit 2); a name neither ever had stays
bad input.

The team's helpdesk agent of ``test_changed_case_git`` (a compiled graph: ``agent`` and a
``tools`` ToolNode), on scripted models, its baseline saved to a file at commit 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gate.test_changed_case_git import AGENT, SCRIPTS, TOOLS, Team, _dataset, built_once

pytestmark = pytest.mark.system

UNLOCK = '''

@tool
def unlock_account(user_id: str) -> str:
    """Unlock a user's account."""
    return f"account of {user_id} unlocked"
'''
WITH_UNLOCK = AGENT.replace(
    "import reset_password", "import reset_password, unlock_account"
).replace("tools=[reset_password]", "tools=[reset_password, unlock_account]")


def _golden(**hd1: object) -> str:
    """The dataset with critical case HD-3 (unlock u-8) and ``hd1`` set on HD-1."""
    dataset = json.loads(_dataset("u-7"))
    dataset["available_tools"].append("unlock_account")
    dataset["test_cases"][0].update(hd1)
    dataset["test_cases"].append(
        {
            "id": "HD-3",
            "input": "Please unlock the account of u-8.",
            "category": "happy_path",
            "tier": "critical",
            "expected_tools": ["unlock_account"],
            "expected_output_contains": ["unlocked"],
        }
    )
    return json.dumps(dataset)


@pytest.fixture
def team(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Team:
    """A test's own copy of :func:`_baselined` (built once by the test process)."""
    built, _ = built_once("dropped names", tmp_path_factory, _baselined)
    return built.copy(tmp_path)


def _baselined(folder: Path) -> tuple[Team, str]:
    """Commit 1: the agent with unlock_account, HD-1 routed through ``tools``; baseline saved."""
    team = Team(folder / "helpdesk-repo")
    team.write("helpdesk/__init__.py", "")
    team.write("helpdesk/agent.py", WITH_UNLOCK)
    team.write("helpdesk/tools.py", TOOLS.format(USERS='{"u-7"}') + UNLOCK)
    team.write(
        "fake_models.yaml",
        SCRIPTS
        + "    - when: [unlock]\n      replies: [{tool: unlock_account, args: {user_id: u-8}}]\n",
    )
    team.write("variants/helpdesk.yaml", "name: helpdesk\n" + VARIANT_REST)
    team.write("golden.json", _golden(expected_route=["agent", "tools"]))
    team.write("arena.yaml", CONFIG)
    team.write(".gitignore", "reports/\n")
    team.commit("helpdesk agent")
    team.arena("run", "--variants", "variants/helpdesk.yaml", "--dataset", "golden.json")
    team.arena("baseline", "save", "helpdesk", "--export", "baselines/baseline.json")
    return team, team.commit("baseline")


VARIANT_REST = """agent: helpdesk.agent:build
model: {spec: fake:helpdesk}
system_prompt: You are the IT helpdesk.
"""
CONFIG = """baseline: baselines/baseline.json
candidate: helpdesk
run: {dataset: golden.json, variants_dir: variants, tier: all}
compare: {judge: none}
report_dir: reports
"""


def test_a_tool_the_candidate_dropped_is_a_regression_naming_the_case(team: Team) -> None:
    saved = json.loads((team.folder / "baselines" / "baseline.json").read_text())
    assert "unlock_account" in saved["variant_version"]["tools"]
    team.write("helpdesk/agent.py", AGENT)  # unlock_account dropped
    team.commit("drop unlock_account")
    doc, md = team.gate(code=1)
    broken = [r for r in doc["regression"]["reasons"] if r["rule"] == "critical_broken"]
    assert [r["case_id"] for r in broken] == ["HD-3"]
    note = (
        "HD-3 expects tool unlock_account, which the candidate no longer offers (the baseline did)"
    )
    assert note in doc["notes"] and note in md


def test_a_tool_neither_side_ever_had_is_still_bad_input(team: Team) -> None:
    dataset = json.loads(_golden(expected_route=["agent", "tools"]))
    dataset["available_tools"].append("unlock_acount")
    dataset["test_cases"][2]["expected_tools"] = ["unlock_acount"]  # misspelt
    team.write("golden.json", json.dumps(dataset))
    done = team.call("gate")
    assert done.returncode == 2, done.stderr[-2000:]
    assert (
        "case HD-3, field expected_tools: tool(s) unlock_acount offered by no variant, so the "
        "case can never pass: every variant lacks it (helpdesk: reset_password, "
        "unlock_account), and no baseline offered it; give the agent the tool, or correct the "
        "tool's name in the case"
    ) in done.stderr


def test_a_node_the_candidate_renamed_is_a_regression_naming_the_case(team: Team) -> None:
    saved = json.loads((team.folder / "baselines" / "baseline.json").read_text())
    assert saved["graph_nodes"] == ["agent", "tools"]
    team.write("helpdesk/agent.py", WITH_UNLOCK.replace('"tools"', '"actions"'))
    team.commit("the tools node is now actions")
    doc, md = team.gate(code=1)
    broken = [r for r in doc["regression"]["reasons"] if r["rule"] == "critical_broken"]
    assert [r["case_id"] for r in broken] == ["HD-1"]
    assert "route agent -> actions -> agent, expected agent -> tools" in broken[0]["message"]
    note = (
        "HD-1 names node tools in expected_route, which the candidate's graph no longer has "
        "(the baseline's did)"
    )
    assert note in doc["notes"] and note in md


def test_a_node_neither_graph_ever_had_is_still_bad_input(team: Team) -> None:
    team.write("golden.json", _golden(expected_route=["agent", "tool"]))
    done = team.call("gate")
    assert done.returncode == 2, done.stderr[-2000:]
    assert "case HD-1, field expected_route: unknown node(s) tool: the graph of helpdesk has" in (
        done.stderr
    )

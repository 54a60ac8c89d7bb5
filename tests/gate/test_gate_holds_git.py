"""The gate never passes a broken critical case unseen: a team's helpdesk agent in its own git
repository, on scripted models, every step the ``arena`` CLI run from the repository's folder
(the team of :mod:`tests.gate.test_changed_case_git`, with a critical scripted conversation).

Commit 1 saves the baseline; each test's pull request is one more commit: an edited critical
case that both sides fail, a critical case removed or demoted, the blocking rules turned off,
a conversation broken at one turn, a baseline saved from uncommitted changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.gate.test_changed_case_git import AGENT, CONFIG, TOOLS, VARIANT, Team, built_once

pytestmark = pytest.mark.system

SCRIPTS = """models: {}
scripts:
  helpdesk:
    - when: [u-7]
      replies: [{tool: reset_password, args: {user_id: u-7}}]
    - when: [u-8]
      replies: [{tool: reset_password, args: {user_id: u-8}}]
    - when: [forgot]
      replies: ["What is your user id?"]
    - when: [opening hours]
      replies: ["We are open 9 to 5."]
"""
KNOWN = '{"u-7"}'


def dataset(reset: str = "u-7", hd2: str | None = "critical", turn_user: str = "u-7") -> str:
    """HD-1 resets ``reset``'s password; HD-2 (tier ``hd2``, None: removed) asks the opening
    hours; HD-3, a critical conversation, resets ``turn_user``'s at its second turn."""
    cases: list[dict[str, Any]] = [
        {
            "id": "HD-1",
            "input": f"Please reset the password of {reset}.",
            "category": "happy_path",
            "tier": "critical",
            "expected_tools": ["reset_password"],
            "expected_output_contains": ["reset"],
        },
        {
            "id": "HD-3",
            "input": "I forgot my password.",
            "category": "multi_step",
            "tier": "critical",
            "expected_tools": ["reset_password"],
            "expected_output_contains": ["Done"],
            "conversation": {
                "turns": [{"user": f"My id is {turn_user}."}],
                "expect": [
                    {"turn": 1, "contains": ["user id"]},
                    {"turn": 2, "tools": ["reset_password"]},
                ],
            },
        },
    ]
    if hd2 is not None:
        cases.insert(
            1,
            {
                "id": "HD-2",
                "input": "What are your opening hours?",
                "category": "happy_path",
                "tier": hd2,
                "expected_output_contains": ["9 to 5"],
            },
        )
    return json.dumps(
        {"name": "helpdesk", "available_tools": ["reset_password"], "test_cases": cases}
    )


def repository(
    factory: pytest.TempPathFactory, tmp_path: Path, config: str = CONFIG, scripts: str = SCRIPTS
) -> tuple[Team, str]:
    """A test's own copy (in ``tmp_path``) of the team's repository at commit 1, the baseline
    saved there, on a feature branch; the test process builds each ``config`` and ``scripts``
    once."""
    team, first = built_once(
        f"holds\n{config}\n{scripts}",
        factory,
        lambda folder: _repository(folder / "repo", config, scripts),
    )
    return team.copy(tmp_path), first


def _repository(folder: Path, config: str, scripts: str) -> tuple[Team, str]:
    """The team's repository at commit 1, the baseline saved there, on a feature branch."""
    team = Team(folder)
    team.write("helpdesk/__init__.py", "")
    team.write("helpdesk/agent.py", AGENT)
    team.write("helpdesk/tools.py", TOOLS.format(USERS=KNOWN))
    team.write("fake_models.yaml", scripts)
    team.write("variants/helpdesk.yaml", VARIANT)
    team.write("golden.json", dataset())
    team.write("arena.yaml", config)
    team.write(".gitignore", "reports/\n")
    first = team.commit("helpdesk agent")
    team.arena("run", "--variants", "variants/helpdesk.yaml", "--dataset", "golden.json")
    team.arena("baseline", "save", "helpdesk", "--export", "baselines/baseline.json")
    team.git("checkout", "-q", "-b", "feature")
    return team, first


def reasons(doc: dict[str, Any], rule: str) -> dict[str, dict[str, Any]]:
    """The gate's reasons of one rule, by case."""
    return {r["case_id"]: r for r in doc["regression"]["reasons"] if r["rule"] == rule}


def test_an_edited_critical_case_both_sides_fail_blocks(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team, first = repository(tmp_path_factory, tmp_path)
    team.write("golden.json", dataset(reset="u-8", turn_user="u-8"))  # u-8 is no user
    team.commit("HD-1 and HD-3's second turn ask about u-8")
    doc, md = team.gate(code=1)
    regression = doc["regression"]
    assert regression["rerun_cases"] == ["HD-1", "HD-3"] and regression["broken_cases"] == []
    assert regression["changed_outcomes"] == {"HD-1": "fails 0/1", "HD-3": "fails 0/1"}
    failing = reasons(doc, "critical_failing")
    assert sorted(failing) == ["HD-1", "HD-3"]
    assert all(r["severity"] == "block" for r in failing.values())
    assert failing["HD-1"]["message"].startswith(
        "critical case HD-1 changed since the baseline and the candidate fails 0/1 "
        "(trajectory: reset_password was called but raised KeyError"
    )
    assert failing["HD-1"]["message"].endswith(
        "the baseline's code fails 0/1 on it too: make it pass, or move it out of the tier "
        "knowingly"
    )
    assert "turn 2: expected a call to reset_password" in failing["HD-3"]["message"]
    assert "| `HD-1` | critical_failing | trajectory |" in md
    assert "| `HD-3` | critical_failing |" in md
    assert f"baseline side run from commit {first[:7]}" in md


def test_a_critical_case_removed_blocks_until_the_baseline_is_saved_again(
    tmp_path_factory: pytest.TempPathFactory,
    tmp_path: Path,
) -> None:
    team, _ = repository(tmp_path_factory, tmp_path)
    team.write("golden.json", dataset(hd2=None))
    team.commit("HD-2 removed")
    doc, md = team.gate(code=1)
    [missing] = reasons(doc, "critical_missing").values()
    assert missing["case_id"] == "HD-2" and missing["severity"] == "block"
    assert missing["message"].startswith(
        "critical case HD-2: critical in the baseline, removed from the dataset"
    )
    assert doc["regression"]["tier_changes"] == {
        "HD-2": "critical in the baseline, removed from the dataset"
    }
    assert (
        "Removed from the dataset (not compared): `HD-2` (removed from the dataset: blocks, "
        "critical_missing)"
    ) in md
    # removing it on purpose: the baseline saved again in the same change
    team.arena("baseline", "save", "helpdesk", "--export", "baselines/baseline.json", "--force")
    team.commit("baseline saved again without HD-2")
    again, _ = team.gate(code=0)
    assert again["regression"]["tier_changes"] == {}


def test_a_critical_case_demoted_and_broken_blocks(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team, _ = repository(tmp_path_factory, tmp_path)
    team.write("golden.json", dataset(hd2="standard"))
    team.write("fake_models.yaml", SCRIPTS.replace("9 to 5", "10 to 6"))  # HD-2 now fails
    team.commit("HD-2 demoted to standard; the model's hours changed")
    doc, md = team.gate(code=1)
    [missing] = reasons(doc, "critical_missing").values()
    assert missing["case_id"] == "HD-2" and missing["severity"] == "block"
    assert missing["message"].startswith(
        "critical case HD-2: demoted to standard since the baseline"
    )
    assert "demoted to standard since the baseline: blocks, critical_missing" in md


CONFIG_NO_BLOCK = CONFIG + "rules: {block: []}\nabsolute: {min_critical_pass_rate: 0}\n"


def test_a_gate_with_no_blocking_rule_says_what_it_let_pass(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team, _ = repository(tmp_path_factory, tmp_path, CONFIG_NO_BLOCK)
    team.write("helpdesk/tools.py", TOOLS.format(USERS="set()"))  # u-7 is gone: HD-1 breaks
    team.commit("no users")
    done = team.call("gate")
    assert done.returncode == 0, done.stderr[-2000:]  # the team's choice: no rule blocks
    [first_line] = [x for x in done.stdout.splitlines() if x.startswith("arena gate")]
    assert first_line.startswith("arena gate passed (no rule blocks: 4 findings would have ")
    assert "critical_broken HD-1" in first_line and "critical_broken HD-3" in first_line
    reports = team.folder / "reports"
    doc = json.loads((reports / "gate.json").read_text())
    md = (reports / "gate.md").read_text()
    assert doc["passed"] and doc["blocking_rules"] == []
    assert {(r["rule"], r["case_id"]) for r in doc["would_block"]} >= {
        ("critical_broken", "HD-1"),
        ("critical_broken", "HD-3"),
    }
    assert md.startswith("## ⚠️ arena gate passed (no rule blocks: ")


def test_why_a_conversation_broke_quotes_its_turns(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team, _ = repository(tmp_path_factory, tmp_path)
    team.write("helpdesk/tools.py", TOOLS.format(USERS="set()"))  # every reset now raises
    team.commit("no users")
    doc, md = team.gate(code=1)
    broken = reasons(doc, "critical_broken")
    assert sorted(broken) == ["HD-1", "HD-3"]
    turn = "turn 2: expected a call to reset_password; its call raised KeyError"
    assert turn in broken["HD-3"]["check"]
    assert "turns score" not in broken["HD-3"]["check"]
    assert "| `HD-3` | critical_broken | trajectory | reset_password was called but raised " in md
    assert turn in md.split("Why cases broke")[1]


def test_a_baseline_saved_from_uncommitted_changes_says_so(tmp_path: Path) -> None:
    team = Team(tmp_path / "repo")
    team.write("helpdesk/__init__.py", "")
    team.write("helpdesk/agent.py", AGENT)
    team.write("helpdesk/tools.py", TOOLS.format(USERS=KNOWN))
    team.write("fake_models.yaml", SCRIPTS)
    team.write("variants/helpdesk.yaml", VARIANT)
    team.write("golden.json", dataset())
    team.write("arena.yaml", CONFIG)
    team.write(".gitignore", "reports/\n")
    first = team.commit("helpdesk agent")
    team.write("helpdesk/tools.py", TOOLS.format(USERS='{"u-7", "u-8"}'))  # not committed
    team.arena("run", "--variants", "variants/helpdesk.yaml", "--dataset", "golden.json")
    saved = team.call("baseline", "save", "helpdesk", "--export", "baselines/baseline.json")
    assert saved.returncode == 0, saved.stderr
    assert f"was made from uncommitted changes on top of commit {first[:7]}" in saved.stderr
    baseline = json.loads((team.folder / "baselines" / "baseline.json").read_text())
    assert baseline["provenance"]["commit"] == first
    assert baseline["provenance"]["dirty"] == "true"
    team.commit("u-8 added; baseline saved")
    team.write("golden.json", dataset(reset="u-8"))
    team.commit("HD-1 asks about u-8")
    doc, md = team.gate(code=0)  # commit 1's code fails HD-1 on u-8: fixed, not broken
    side = doc["regression"]["baseline_side"]
    assert side == (
        f"baseline side run from commit {first[:7]}; baseline was made from uncommitted "
        f"changes on top of {first[:7]}: its side ran {first[:7]}'s code"
    )
    assert doc["regression"]["fixed_cases"] == ["HD-1"]
    assert side in md


SIMULATED = {
    "id": "HD-4",
    "input": "I cannot log in.",
    "category": "multi_step",
    "tier": "critical",
    "expected_tools": ["reset_password"],
    "expected_output_contains": ["Done"],
    "conversation": {
        "user": {
            "persona": "An employee locked out of their laptop.",
            "goal": "Get my password reset.",
            "facts": {"user_id": "u-7"},
            "max_turns": 4,
        }
    },
}
USER_SCRIPTS = """  helpdesk-user:
    - when: [user id]
      replies: ["My id is u-7."]
    - when: [done]
      replies: ["###STOP###"]
    - when: [hello]
      replies: ["How can I help you?"]
"""
LOG_IN = '    - when: [log in]\n      replies: ["{reply}"]\n'


@pytest.mark.parametrize("wanted", ["Done", "Completed"])
def test_a_simulator_error_on_the_baseline_side_is_missing_evidence(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, wanted: str
) -> None:
    # commit 1's model greets instead of asking: its simulated user breaks role (role error)
    before = SCRIPTS.replace("  helpdesk:\n", "  helpdesk:\n" + LOG_IN.format(reply="Hello there."))
    config = CONFIG.replace("tier: all}", "tier: all, user_model: 'fake:helpdesk-user'}")
    team, first = repository(tmp_path_factory, tmp_path, config, before + USER_SCRIPTS)
    after = SCRIPTS.replace(
        "  helpdesk:\n", "  helpdesk:\n" + LOG_IN.format(reply="What is your user id?")
    )
    team.write("fake_models.yaml", after + USER_SCRIPTS)
    cases = json.loads(dataset())
    simulated = SIMULATED | {"expected_output_contains": [wanted]}  # "Completed": it fails
    team.write("golden.json", json.dumps(cases | {"test_cases": [*cases["test_cases"], simulated]}))
    team.commit("HD-4, a simulated user; the model asks for the user id")
    fails = wanted == "Completed"
    doc, md = team.gate(code=1 if fails else 0)
    regression = doc["regression"]
    assert regression["new_cases"] == ["HD-4"] and regression["rerun_cases"] == []
    assert regression["simulator_error_cases"] == ["HD-4"]
    assert regression["simulator_errors"] == 1
    assert regression["baseline_side_simulator_errors"] == 1
    outcome = "fails 0/1" if fails else "passes 1/1"
    assert regression["changed_outcomes"] == {"HD-4": outcome}
    assert regression["baseline_side"] == f"baseline side run from commit {first[:7]}"
    assert f"Only simulator errors (not compared: missing evidence): `HD-4` ({outcome})" in md
    failing = reasons(doc, "critical_failing")
    assert list(failing) == (["HD-4"] if fails else [])
    if fails:  # the edited-case rule still holds the candidate to it
        assert failing["HD-4"]["message"].startswith(
            "critical case HD-4 is new and the candidate fails 0/1 (output: output missing: "
            "'Completed'"
        )
        assert failing["HD-4"]["message"].endswith(
            "the baseline side's every repeat was a simulator error (missing evidence)"
        )
    assert "Added since the baseline" not in md
    assert "1 simulator error (not agent failures), 1 of them on the baseline side" in md

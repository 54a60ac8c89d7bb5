"""A critical case edited in the change being gated must still pass its previous version.

The team's helpdesk agent (``test_changed_case_git``) in its own git repository: the baseline is
saved at commit 1, where critical case HD-1 asks to reset u-7's password and expects the
``reset_password`` call and ``reset`` in the answer. In commit 2 the change breaks the tool and
weakens HD-1 so the broken tool passes it; the gate runs the candidate on HD-1's previous
version (from the baseline's commit) and blocks. An honest edit the candidate passes in both
versions passes, and a new baseline saved in the same change accepts an edit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gate.test_changed_case_git import TOOLS, Team, _dataset, baselined_copy

pytestmark = pytest.mark.system

BROKEN_TOOLS = TOOLS.replace(
    '    """Reset a user\'s password."""\n',
    '    """Reset a user\'s password."""\n    raise RuntimeError("directory down")\n',
)


def _edit_hd1(team: Team, **changes: object) -> None:
    """Commit 2's dataset: HD-1 with ``changes`` (None drops a field)."""
    dataset = json.loads(_dataset("u-7"))
    case = dataset["test_cases"][0]
    for field, value in changes.items():
        if value is None:
            case.pop(field)
        else:
            case[field] = value
    team.write("golden.json", json.dumps(dataset))


def _weakened(factory: pytest.TempPathFactory, tmp_path: Path) -> Team:
    """Commit 2: reset_password raises on every call, and HD-1 now lets its call fail."""
    team, _ = baselined_copy(factory, tmp_path)
    team.git("checkout", "-q", "-b", "feature")
    team.write("helpdesk/tools.py", BROKEN_TOOLS.format(USERS='{"u-7", "u-9"}'))
    _edit_hd1(
        team,
        input="Please reset the password of u-7, thanks.",
        expected_tool_errors=["reset_password"],
        expected_output_contains=["Done"],
    )
    team.commit("HD-1 reworded")
    return team


def test_a_critical_case_weakened_beside_a_broken_tool_blocks_until_a_new_baseline(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team = _weakened(tmp_path_factory, tmp_path)
    (tmp_path / "arena.db").unlink()  # a fresh database, as in CI: the commit holds HD-1's text
    doc, md = team.gate(code=1)
    regression = doc["regression"]
    assert regression["changed_outcomes"] == {"HD-1": "passes 1/1"}  # the weakened case passes
    assert regression["previous_outcomes"] == {"HD-1": "fails 0/1"}
    [why] = [r for r in regression["reasons"] if r["rule"] == "critical_broken"]
    assert why["case_id"] == "HD-1" and why["severity"] == "block"
    assert why["message"].startswith(
        "critical case HD-1 was edited in this change and the candidate fails its previous "
        "version: 1/1 -> 0/1 passes (trajectory: reset_password was called but raised "
        "RuntimeError"
    )
    assert "save the baseline again in the same change" in why["message"]
    weakened = regression["weakened_cases"]["HD-1"]
    assert weakened == (
        'expected_output_contains lost "reset"; expected_tool_errors gained "reset_password"'
    )
    assert "`HD-1` (fails 0/1)" in md.split("the candidate on the baseline's (previous) version")[1]
    assert "Weakened critical cases (checks the edit removed): `HD-1` (expected_output" in md
    # the run on the previous version is not the candidate's latest run
    assert regression["previous_run"] != doc["run_id"]
    # accepting the edit: the baseline saved again from a run on the new dataset, committed
    team.arena("run", "--variants", "variants/helpdesk.yaml", "--dataset", "golden.json")
    team.arena("baseline", "save", "helpdesk", "--export", "baselines/baseline.json", "--force")
    team.commit("new baseline: HD-1 reworded")
    accepted, _ = team.gate(code=0)
    assert accepted["regression"]["changed_cases"] == []
    assert accepted["regression"]["previous_outcomes"] == {}


def test_an_honest_edit_passed_in_both_versions_passes(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team, _ = baselined_copy(tmp_path_factory, tmp_path)
    team.git("checkout", "-q", "-b", "feature")
    _edit_hd1(team, input="Please reset the password of u-7, thanks.")
    team.commit("HD-1 reworded")
    doc, md = team.gate(code=0)
    regression = doc["regression"]
    assert regression["changed_cases"] == ["HD-1"]
    assert regression["previous_outcomes"] == {"HD-1": "passes 1/1"}
    assert regression["weakened_cases"] == {} and "Weakened" not in md


def test_a_weakened_critical_case_is_named_even_when_the_candidate_passes(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team, _ = baselined_copy(tmp_path_factory, tmp_path)
    team.git("checkout", "-q", "-b", "feature")
    _edit_hd1(team, expected_output_contains=None)
    team.commit("HD-1 no longer checks the answer")
    doc, md = team.gate(code=0)
    regression = doc["regression"]
    assert regression["previous_outcomes"] == {"HD-1": "passes 1/1"}
    assert regression["weakened_cases"] == {"HD-1": 'expected_output_contains lost "reset"'}
    assert "Weakened critical cases (checks the edit removed): `HD-1`" in md

"""A project kept in a folder of its repository, renamed since its baseline was saved
(``git mv proj app``): the gate needs the baseline's side of a changed case and cannot find
the project in the baseline's commit, so it exits 2 in one line naming the baseline file,
``provenance.commit`` and the command that saves the baseline again (before: a fallback to
``critical_failing`` and exit 1, a regression verdict the move caused)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gate.test_changed_case_git import (
    AGENT,
    CONFIG,
    SCRIPTS,
    TOOLS,
    VARIANT,
    Team,
    _dataset,
    built_once,
)

pytestmark = pytest.mark.system


def _in_proj(factory: pytest.TempPathFactory, tmp_path: Path) -> tuple[Team, Path, str]:
    """A test's own copy of :func:`_build` (built once by the test process), its repository's
    folder, and its first commit."""
    built, first = built_once("renamed project", factory, _build)
    team = built.copy(tmp_path)
    return team, team.folder.parent, first


def _build(folder: Path) -> tuple[Team, str]:
    """A repository whose project is its folder proj/, with a baseline saved and committed."""
    team = Team(folder / "monorepo")
    top = team.folder
    team.folder = top / "proj"  # the project is one folder of the repository
    team.write("helpdesk/__init__.py", "")
    team.write("helpdesk/agent.py", AGENT)
    team.write("helpdesk/tools.py", TOOLS.format(USERS='{"u-7", "u-9"}'))
    team.write("fake_models.yaml", SCRIPTS)
    team.write("variants/helpdesk.yaml", VARIANT)
    team.write("golden.json", _dataset("u-7"))
    team.write("arena.yaml", CONFIG)
    first = team.commit("helpdesk agent in proj/")
    team.arena("run", "--variants", "variants/helpdesk.yaml", "--dataset", "golden.json")
    team.arena("baseline", "save", "helpdesk", "--export", "baselines/baseline.json")
    team.commit("baseline")
    return team, first


def _rename(team: Team, top: Path) -> None:
    team.folder = top
    team.git("mv", "proj", "app")
    team.folder = top / "app"
    team.write("golden.json", _dataset("u-9"))  # HD-1 changed: the baseline's side must run
    team.commit("proj/ renamed app/; HD-1 asks about u-9")


def test_a_renamed_project_folder_is_exit_2_saying_what_to_do(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team, top, first = _in_proj(tmp_path_factory, tmp_path)
    _rename(team, top)
    done = team.call("gate", "--json")
    assert done.returncode == 2, (done.stdout[-2000:], done.stderr[-2000:])
    (line,) = done.stderr.strip().splitlines()
    assert line == (
        "arena: error: file baselines/baseline.json, field provenance.commit: the project "
        f"folder app is not in commit {first[:7]}, where the baseline was saved: the project "
        "moved since, so the baseline's code cannot run on the changed cases; save the "
        "baseline again from this layout (`arena baseline save helpdesk --export "
        "baselines/baseline.json`) and commit it"
    )
    report = json.loads((team.folder / "reports" / "gate.json").read_text())
    assert "regression" not in report and report["bad_input"]["field"] == "provenance.commit"
    assert team.git("worktree", "list").count("\n") == 0  # the checkout is gone


def test_without_a_recorded_commit_the_merge_base_side_falls_back_as_before(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    """A baseline that records no commit says nothing of where the project was: its side runs
    the CI merge base, and a project not there is a side that could not run (the gate's
    documented fallback, ``critical_failing``), not bad input."""
    team, top, _ = _in_proj(tmp_path_factory, tmp_path)
    file = team.folder / "baselines" / "baseline.json"
    saved = json.loads(file.read_text())
    del saved["provenance"]["commit"]
    file.write_text(json.dumps(saved))
    team.commit("a baseline without its commit")
    team.git("checkout", "-q", "-b", "feature")
    _rename(team, top)
    team.env["ARENA_BASE_REF"] = "main"
    doc, _ = team.gate(code=0)  # the candidate passes HD-1: critical_failing does not block
    assert doc["regression"]["baseline_side"] == (
        "baseline commit unavailable: the project folder app is not in that commit (it moved "
        "since the baseline?); save the baseline again from this layout"
    )

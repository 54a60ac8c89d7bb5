"""The gate on a baseline it cannot take at its word: a ``provenance.commit`` that is not a
hash (``HEAD`` names today's commit, not the baseline's) is exit 2 naming the file and the
field; a project folder moved since the baseline's commit is exit 2 in one line naming the
baseline file and saying how to save it again (never a regression verdict, never exit 70)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.gate.test_changed_case_git import TOOLS, _dataset, baselined_copy

pytestmark = pytest.mark.system


@pytest.mark.parametrize("commit", ["HEAD", "main", "HEAD~1", "abc12"])
def test_a_commit_that_is_not_a_hash_is_refused(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, commit: str
) -> None:
    team, _ = baselined_copy(tmp_path_factory, tmp_path)
    file = team.folder / "baselines" / "baseline.json"
    saved = json.loads(file.read_text())
    saved["provenance"]["commit"] = commit
    file.write_text(json.dumps(saved))
    done = team.call("gate", "--json")
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(
        f"arena: error: file baselines/baseline.json, field provenance.commit: {commit!r} is "
        "not a commit hash"
    )


def test_a_project_moved_since_the_baseline_is_exit_2_saying_what_to_do(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    team, first = baselined_copy(tmp_path_factory, tmp_path)
    team.git("checkout", "-q", "-b", "feature")
    team.write("helpdesk/tools.py", TOOLS.format(USERS='{"u-7"}'))
    team.write("golden.json", _dataset("u-9"))  # HD-1 changed: the baseline's side must run
    (team.folder / "app").mkdir()
    moved = ["helpdesk", "variants", "baselines", "golden.json", "arena.yaml", "fake_models.yaml"]
    subprocess.run(["mv", *moved, "app/"], cwd=team.folder, check=True)
    team.commit("the project moves into app/")
    team.folder = team.folder / "app"
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
    assert "regression" not in report  # no verdict: the bad-input report the PR shows
    assert report["bad_input"]["field"] == "provenance.commit"
    assert team.git("worktree", "list").count("\n") == 0  # the checkout is gone

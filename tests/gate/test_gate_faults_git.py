"""The gate on a baseline it cannot take at its word: a ``provenance.commit`` that is not a
hash (``HEAD`` names today's commit, not the baseline's) is exit 2 naming the file and the
field; a project folder moved since the baseline's commit is a baseline side that could not
run, said in the report (the gate falls back to ``critical_failing``), never exit 70."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.gate.test_changed_case_git import TOOLS, _baselined, _dataset

pytestmark = pytest.mark.system


@pytest.mark.parametrize("commit", ["HEAD", "main", "HEAD~1", "abc12"])
def test_a_commit_that_is_not_a_hash_is_refused(tmp_path: Path, commit: str) -> None:
    team, _ = _baselined(tmp_path, '{"u-7", "u-9"}')
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


def test_a_project_moved_since_the_baseline_is_a_side_that_could_not_run(tmp_path: Path) -> None:
    team, first = _baselined(tmp_path, '{"u-7", "u-9"}')
    team.git("checkout", "-q", "-b", "feature")
    team.write("helpdesk/tools.py", TOOLS.format(USERS='{"u-7"}'))
    team.write("golden.json", _dataset("u-9"))
    (team.folder / "app").mkdir()
    moved = ["helpdesk", "variants", "baselines", "golden.json", "arena.yaml", "fake_models.yaml"]
    subprocess.run(["mv", *moved, "app/"], cwd=team.folder, check=True)
    team.commit("the project moves into app/")
    team.folder = team.folder / "app"
    doc, md = team.gate(code=1)
    regression = doc["regression"]
    assert regression["baseline_side"] == (
        "baseline commit unavailable: the project folder app is not in that commit (it moved "
        "since the baseline?); save the baseline again from this layout"
    )
    assert [r["rule"] for r in regression["reasons"] if r["case_id"] == "HD-1"] == [
        "critical_failing"
    ]
    assert "the project folder app is not in that commit" in md
    assert team.git("worktree", "list").count("\n") == 0  # the checkout is gone
    assert regression["changed_cases"] == ["HD-1"] and first

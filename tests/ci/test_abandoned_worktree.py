"""A gate killed (SIGKILL) while it holds the baseline's checkout leaves a git worktree behind;
the next checkout in the repository removes it (its folder and its entry), and only it: the
user's own worktrees, one whose folder is gone included, stay listed, and a live gate's
checkout is left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from arena.ci._worktree import checked_out, prune_abandoned

pytestmark = pytest.mark.system  # git and a real process killed

ROOT = Path(__file__).resolve().parents[2]

HOLDER = """
import sys, time
from pathlib import Path
from arena.ci._worktree import checked_out
with checked_out(Path(sys.argv[1]), sys.argv[2]) as folder:
    print(folder, flush=True)
    time.sleep(600)
"""


def _git(top: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(top), *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _worktrees(top: Path) -> list[str]:
    lines = _git(top, "worktree", "list", "--porcelain").splitlines()
    return [line.removeprefix("worktree ") for line in lines if line.startswith("worktree ")]


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    top = tmp_path / "project"
    top.mkdir()
    _git(top, "init", "-q")
    (top / "agent.py").write_text("ANSWER = 42\n")
    _git(top, "add", ".")
    _git(top, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "first")
    return top, _git(top, "rev-parse", "HEAD").strip()


def _hold(top: Path, commit: str) -> tuple[subprocess.Popen[str], Path]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(top), commit],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    return holder, Path(holder.stdout.readline().strip())


def test_a_killed_gate_s_checkout_is_removed_by_the_next(repo: tuple[Path, str]) -> None:
    top, commit = repo
    mine = top.parent / "mine"
    _git(top, "worktree", "add", "--detach", str(mine), commit)
    gone = top.parent / "gone"
    _git(top, "worktree", "add", "--detach", str(gone), commit)
    subprocess.run(["rm", "-rf", str(gone)], check=True)  # the user's, prunable: not ours

    killed, left = _hold(top, commit)
    live, held = _hold(top, commit)
    try:
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=60)
        assert left.is_dir() and str(left) in _worktrees(top)  # nothing cleaned it up

        with checked_out(top, commit) as folder:
            assert (folder / "agent.py").read_text() == "ANSWER = 42\n"
            listed = _worktrees(top)
            assert str(left) not in listed and not left.parent.exists()
            assert {str(mine), str(gone), str(held), str(folder)} <= set(listed)
        assert str(folder) not in _worktrees(top) and not folder.parent.exists()
        assert held.is_dir()  # a live gate's checkout stays
    finally:
        live.kill()
        live.wait(timeout=60)
        prune_abandoned(top)  # its checkout, now abandoned too
    assert not held.parent.exists()

"""A past commit of the project checked out beside it: a temporary ``git worktree``.

The gate runs a baseline's code on cases that changed since the baseline
(:mod:`arena.gate._baseline_side`); this module finds the repository, checks the commit is in
it, checks it out into a temporary folder and removes it afterwards. Every failure is a
:class:`CommitUnavailable` saying why, in words a report can print.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

GIT_TIMEOUT_S = 120.0


class CommitUnavailable(Exception):
    """The baseline's commit cannot be checked out (no git, not a repository, not there)."""


def _git(top: Path, *args: str) -> subprocess.CompletedProcess[str]:
    git = shutil.which("git")
    if git is None:
        raise CommitUnavailable("git is not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        return subprocess.run(
            [git, "-C", str(top), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            env=env,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CommitUnavailable(f"git {args[0]} failed: {exc}") from None


def repository_top(folder: Path) -> Path:
    """The top folder of the git repository holding ``folder``."""
    done = _git(folder, "rev-parse", "--show-toplevel")
    if done.returncode != 0:
        raise CommitUnavailable(f"{folder} is not in a git repository")
    return Path(done.stdout.strip()).resolve()


def full_commit(top: Path, commit: str) -> str:
    """``commit`` as its full id, if the repository holds it."""
    done = _git(top, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
    if done.returncode != 0 or not done.stdout.strip():
        raise CommitUnavailable(
            f"commit {commit[:12]} is not in the repository (a shallow clone? fetch the "
            "whole history, e.g. actions/checkout with fetch-depth: 0)"
        )
    return done.stdout.strip()


def merge_base(top: Path, branch: str) -> str:
    """The merge base of ``HEAD`` and ``branch`` (``origin/BRANCH`` tried first)."""
    for ref in (f"origin/{branch}", branch):
        done = _git(top, "merge-base", "HEAD", ref)
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    raise CommitUnavailable(f"no merge base of HEAD and {branch} (fetch-depth: 0?)")


def file_at(top: Path, commit: str, path: Path) -> str:
    """The text of ``path`` (relative to ``top``) as ``commit`` holds it."""
    done = _git(top, "show", f"{commit}:{path.as_posix()}")
    if done.returncode != 0:
        raise CommitUnavailable(f"commit {commit[:12]} holds no {path.as_posix()}")
    return done.stdout


@contextmanager
def checked_out(top: Path, commit: str) -> Iterator[Path]:
    """``commit`` checked out (detached) in a temporary folder, removed on exit."""
    parent = Path(tempfile.mkdtemp(prefix="arena-baseline-"))
    folder = parent / "checkout"
    done = _git(top, "worktree", "add", "--detach", "--force", str(folder), commit)
    if done.returncode != 0:
        shutil.rmtree(parent, ignore_errors=True)
        raise CommitUnavailable(
            f"git worktree add {commit[:12]} failed: {done.stderr.strip()[:300]}"
        )
    try:
        yield folder
    finally:
        _git(top, "worktree", "remove", "--force", str(folder))
        shutil.rmtree(parent, ignore_errors=True)
        _git(top, "worktree", "prune")

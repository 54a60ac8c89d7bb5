"""A past commit of the project checked out beside it: a temporary ``git worktree``.

The gate runs a baseline's code on cases that changed since the baseline
(:mod:`arena.ci._baseline_side`); this module finds the repository, checks the commit is in
it, checks it out into a temporary folder and removes it afterwards. Every failure is a
:class:`CommitUnavailable` saying why, in words a report can print.

A gate killed while its checkout exists (SIGKILL, a cancelled CI job) cannot remove it; the
next checkout in the repository does (:func:`prune_abandoned`): a worktree of its own (a
``checkout`` folder in a temporary ``arena-baseline-*`` folder) whose owner process is gone.
The repository's other worktrees, the user's own, are never touched (no ``git worktree
prune``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

GIT_TIMEOUT_S = 120.0
PREFIX = "arena-baseline-"
"""The temporary folders holding a checkout start with this."""
OWNER_FILE = "owner.pid"
"""The id of the process that made the checkout, beside it."""


_COMMIT_HASH = re.compile(r"[0-9a-fA-F]{7,64}")


def is_commit_hash(text: str) -> bool:
    """``text`` names one commit whatever the repository's state: 7 to 64 hexadecimal
    digits (not ``HEAD``, a branch, a tag or ``HEAD~1``, which move)."""
    return bool(_COMMIT_HASH.fullmatch(text))


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


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _ours(folder: Path) -> bool:
    """``folder`` is a checkout this module made (in the temporary folder, by its names)."""
    parent = folder.parent
    temporary = Path(tempfile.gettempdir()).resolve()
    return (
        folder.name == "checkout"
        and parent.name.startswith(PREFIX)
        and (parent.parent.resolve() == temporary)
    )


def _abandoned(folder: Path) -> bool:
    """A checkout of ours whose owner process is gone (or never wrote its id)."""
    try:
        pid = int((folder.parent / OWNER_FILE).read_text().strip())
    except (OSError, ValueError):
        return True
    return not _alive(pid)


def _drop(top: Path, folder: Path) -> None:
    """Remove the worktree at ``folder`` and its temporary folder; when the folder is gone
    already, its entry in the repository's ``worktrees`` (that entry alone)."""
    done = _git(top, "worktree", "remove", "--force", str(folder))
    if done.returncode != 0:
        common = _git(top, "rev-parse", "--git-common-dir")
        admin = (top / common.stdout.strip()).resolve() / "worktrees"
        for entry in admin.glob("*/gitdir") if common.returncode == 0 else ():
            try:
                pointed = Path(entry.read_text().strip()).parent
            except OSError:
                continue
            if pointed == folder:
                shutil.rmtree(entry.parent, ignore_errors=True)
    shutil.rmtree(folder.parent, ignore_errors=True)


def prune_abandoned(top: Path) -> list[Path]:
    """Remove the checkouts of killed gates in the repository at ``top`` (see the module
    doc); returns their folders. The repository's other worktrees are left as they are."""
    done = _git(top, "worktree", "list", "--porcelain")
    if done.returncode != 0:
        return []
    listed = [
        Path(line.removeprefix("worktree "))
        for line in done.stdout.splitlines()
        if line.startswith("worktree ")
    ]
    removed = []
    for folder in listed:
        if _ours(folder) and _abandoned(folder):
            _drop(top, folder)
            removed.append(folder)
    return removed


@contextmanager
def checked_out(top: Path, commit: str) -> Iterator[Path]:
    """``commit`` checked out (detached) in a temporary folder, removed on exit (the
    checkouts of killed gates first: :func:`prune_abandoned`)."""
    prune_abandoned(top)
    parent = Path(tempfile.mkdtemp(prefix=PREFIX))
    (parent / OWNER_FILE).write_text(str(os.getpid()))
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
        _drop(top, folder)

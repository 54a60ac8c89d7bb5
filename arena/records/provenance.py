"""Where a run came from: the git commit and branch, and the CI run's URL when there is one.

CI variables win (GitHub Actions, GitLab CI, Buildkite, CircleCI, Jenkins; ``ARENA_COMMIT``,
``ARENA_BRANCH`` and ``ARENA_CI_URL`` override everything); otherwise the commit and branch are
read from the ``.git`` folder above the working directory (plain files). When they come from
that folder, ``dirty`` is ``"true"`` if tracked files had uncommitted changes (``git status``,
the one ``git`` process started): the commit is then not the code that ran. Anything unknown is
left out.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from arena.secrets import redact_url

KEYS = ("commit", "branch", "ci_url")
DIRTY = "dirty"
"""Set to ``"true"`` when the working tree had uncommitted changes to tracked files."""


def _github(env: Mapping[str, str]) -> dict[str, str]:
    if env.get("GITHUB_ACTIONS") != "true":
        return {}
    out = {
        "commit": env.get("GITHUB_SHA", ""),
        # a pull request's source branch, else the pushed branch or tag
        "branch": env.get("GITHUB_HEAD_REF") or env.get("GITHUB_REF_NAME", ""),
    }
    server, repo, run = (
        env.get("GITHUB_SERVER_URL", "https://github.com"),
        env.get("GITHUB_REPOSITORY"),
        env.get("GITHUB_RUN_ID"),
    )
    if repo and run:
        out["ci_url"] = f"{server}/{repo}/actions/runs/{run}"
    return out


def _other_ci(env: Mapping[str, str]) -> dict[str, str]:
    for commit, branch, url in (
        ("CI_COMMIT_SHA", "CI_COMMIT_REF_NAME", "CI_JOB_URL"),  # GitLab
        ("BUILDKITE_COMMIT", "BUILDKITE_BRANCH", "BUILDKITE_BUILD_URL"),
        ("CIRCLE_SHA1", "CIRCLE_BRANCH", "CIRCLE_BUILD_URL"),
        ("GIT_COMMIT", "GIT_BRANCH", "BUILD_URL"),
    ):  # Jenkins
        if env.get(commit):
            return {
                "commit": env[commit],
                "branch": env.get(branch, ""),
                "ci_url": env.get(url, ""),
            }
    return {}


def _git_dir(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        candidate = folder / ".git"
        if candidate.is_dir():
            return candidate
        if candidate.is_file():  # a worktree or submodule: "gitdir: <path>"
            text = candidate.read_text(encoding="utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                target = Path(text.split(":", 1)[1].strip())
                return target if target.is_absolute() else (folder / target).resolve()
    return None


def _resolve_ref(git: Path, ref: str) -> str:
    common = git
    commondir = git / "commondir"
    if commondir.is_file():
        common = (git / commondir.read_text(encoding="utf-8").strip()).resolve()
    for root in (git, common):
        loose = root / ref
        if loose.is_file():
            return loose.read_text(encoding="utf-8").strip()
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(encoding="utf-8", errors="replace").splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1] == ref:
                return parts[0]
    return ""


def git_info(start: Path | None = None) -> dict[str, str]:
    """Commit and branch of the repository holding ``start`` (default: the working dir)."""
    try:
        git = _git_dir((start or Path.cwd()).resolve())
        if git is None:
            return {}
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return {}
    if head.startswith("ref:"):
        ref = head.split(":", 1)[1].strip()
        try:
            commit = _resolve_ref(git, ref)
        except OSError:
            commit = ""
        return {"commit": commit, "branch": ref.removeprefix("refs/heads/")}
    return {"commit": head, "branch": ""}  # detached HEAD


def has_uncommitted_changes(start: Path | None = None) -> bool:
    """True when ``git status`` in ``start`` (default: the working dir) lists changes to
    tracked files; False when clean, or when git cannot tell (no git, not a repository)."""
    try:
        done = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=(start or Path.cwd()).resolve(),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and bool(done.stdout.strip())


def provenance(env: Mapping[str, str] | None = None, start: Path | None = None) -> dict[str, str]:
    """``commit``, ``branch`` and ``ci_url`` as far as known (empty values dropped), and
    ``dirty`` (module docstring); the URL without credentials (:func:`arena.secrets.redact_url`)."""
    env = os.environ if env is None else env
    found = _github(env) or _other_ci(env)
    local = git_info(start) if not found.get("commit") else {}
    merged = {key: found.get(key) or local.get(key, "") for key in KEYS}
    for key, var in (
        ("commit", "ARENA_COMMIT"),
        ("branch", "ARENA_BRANCH"),
        ("ci_url", "ARENA_CI_URL"),
    ):
        if env.get(var):
            merged[key] = env[var]
    merged["ci_url"] = redact_url(merged["ci_url"])  # stored: never a token it carries
    if local.get("commit") and not env.get("ARENA_COMMIT") and has_uncommitted_changes(start):
        merged[DIRTY] = "true"
    return {key: value for key, value in merged.items() if value}

"""The gate in CI: the baseline's side (its code, run in a temporary ``git worktree`` on the
cases that changed since it), the previous versions of edited critical cases, the shipped
GitHub Actions workflows and what ``arena init-ci`` reads in a repository to fit them.

Public names load lazily (like :mod:`arena`), so rendering a workflow loads no runner.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.ci._baseline_side import BaselineSide, run_baseline_side, uncommitted_warning
    from arena.ci._scan import ProjectScan, scan_project
    from arena.ci._workflows import ci_files, render

_EXPORTS = {
    "BaselineSide": "arena.ci._baseline_side",
    "run_baseline_side": "arena.ci._baseline_side",
    "uncommitted_warning": "arena.ci._baseline_side",
    "ProjectScan": "arena.ci._scan",
    "scan_project": "arena.ci._scan",
    "ci_files": "arena.ci._workflows",
    "render": "arena.ci._workflows",
}

__all__ = [
    "BaselineSide",
    "ProjectScan",
    "ci_files",
    "render",
    "run_baseline_side",
    "scan_project",
    "uncommitted_warning",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.ci' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

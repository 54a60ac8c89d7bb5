"""Failure reasons stored as plain text (before reasons were records), read back as records.

Only stored scores and baselines written by older versions go through here; every reason made
now is a :class:`~arena.scoring.checks.base.FailReason` from its check.
"""

from __future__ import annotations

from arena.scoring.checks.base import FailReason, FailureKind

# (prefix, check, kind, hard), hard fails first, as the scorer of those versions wrote them.
_PREFIXES: tuple[tuple[str, str, FailureKind | None, bool], ...] = (
    ("run error", "run", "error", True),
    ("empty output", "output", "output", True),
    ("forbidden tool called", "trajectory", "trajectory", True),
    ("output contains forbidden text", "not_contains", "output", True),
    ("behaviour grader failed", "behavior", "behavior", True),
    ("rubric grader failed", "rubric", "output", True),
    ("output missing", "contains", "output", False),
    ("output regex", "regex", "output", False),
    ("output exact", "exact", "output", False),
    ("rubric not met", "rubric", "output", False),
    ("tools ", "trajectory", "trajectory", False),
    ("unknown tools called", "trajectory", "trajectory", False),
    ("behaviour ", "behavior", "behavior", False),
    ("expected file", "functional", "side_effect", False),
    ("score ", "score", None, False),
)


def from_text(text: str) -> FailReason:
    """The record of a reason stored as text (check ``""`` and no kind when unrecognised)."""
    for prefix, check, kind, hard in _PREFIXES:
        if text.startswith(prefix):
            return FailReason(text, check=check, kind=kind, hard=hard)
    return FailReason(text, check="", kind=None, hard=False)

"""Functional correctness: the files a run must leave in its sandbox.

Each expected file scores ``(exists + items found) / (1 + items)``: a missing file scores
0, a present file with no content requirement scores 1, and a present file holding
half its required items scores a bit over half. The component is the mean over files;
it passes when every file exists and holds every item.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from typing import Any

from arena.golden._models import ExpectedFile
from arena.scoring._types import Check, mean
from arena.scoring.checks._contains import score_contains


def normalize_path(path: str) -> str:
    """A comparable relative POSIX path: backslashes, ``./``, ``//`` and ``..`` folded."""
    text = path.strip().replace("\\", "/")
    normal = posixpath.normpath(text) if text else ""
    return normal.lstrip("/") if normal != "." else ""


def find_file(files: Mapping[str, str], path: str) -> tuple[str, str] | None:
    """The (stored path, text) of ``path`` in ``files`` after normalisation, or None."""
    wanted = normalize_path(path)
    for stored, text in files.items():
        if normalize_path(stored) == wanted:
            return stored, text
    return None


def score_file(files: Mapping[str, str], expected: ExpectedFile) -> Check:
    """How well the sandbox holds one expected file (see the module docstring)."""
    found = find_file(files, expected.path)
    if found is None:
        return Check(
            score=0.0,
            passed=False,
            details={
                "path": expected.path,
                "exists": False,
                "missed": [list(i) if isinstance(i, list) else i for i in expected.contains],
            },
        )
    stored, text = found
    contains = score_contains(text, expected.contains)
    n_items = len(expected.contains)
    hits = round(contains.score * n_items)
    score = (1 + hits) / (1 + n_items)
    details: dict[str, Any] = {
        "path": expected.path,
        "exists": True,
        "stored_as": stored,
        **contains.details,
    }
    return Check(score=score, passed=contains.passed, details=details)


def score_files(files: Mapping[str, str], expected: Sequence[ExpectedFile]) -> Check | None:
    """The functional component over every expected file (None when none is expected)."""
    if not expected:
        return None
    checks = [score_file(files, item) for item in expected]
    return Check(
        score=mean([c.score for c in checks]),
        passed=all(c.passed for c in checks),
        details={"files": [c.details | {"score": c.score} for c in checks]},
    )

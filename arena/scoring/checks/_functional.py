"""The ``functional`` check: the files side-effect tools must leave in the run's sandbox.

The scorer is :func:`arena.scoring._functional.score_files`. Each expected file missing, or
lacking an item it must contain, is a hard fail naming the file (the case says it *must* be
there): ``expected file missing: report.md``, ``expected file report.md lacks: 'total'``.
"""

from __future__ import annotations

from typing import ClassVar

from arena.scoring._functional import score_files
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck, Weakening, golden_check
from arena.scoring.checks._contains import item_label


@golden_check("functional", "files a side-effect tool must leave in the sandbox", order=70)
class FunctionalCheck(GoldenCheck):
    """Every ``expected_files`` entry exists and contains its items."""

    component = "functional"
    kind = "side_effect"
    fields = ("expected_files",)
    weakening: ClassVar[dict[str, Weakening]] = {"expected_files": "items"}

    def score(self, data: CheckInput) -> Check | None:
        if data.result is None:
            return None
        return score_files(data.result.files, data.case.expected_files)

    def hard_fails(self, check: Check) -> list[str]:
        """Each expected file missing or incomplete, named."""
        fails: list[str] = []
        for entry in check.details.get("files", []):
            if not entry.get("exists"):
                fails.append(f"expected file missing: {entry['path']}")
            elif entry.get("missed"):
                items = ", ".join(item_label(item) for item in entry["missed"])
                fails.append(f"expected file {entry['path']} lacks: {items}")
        return fails

"""The ``functional`` check: the files side-effect tools must leave in the run's sandbox.

The scorer is :func:`arena.scoring._functional.score_files`.
"""

from __future__ import annotations

from arena.registry import golden_check
from arena.scoring._functional import score_files
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck


@golden_check("functional", "files a side-effect tool must leave in the sandbox", order=70)
class FunctionalCheck(GoldenCheck):
    """Every ``expected_files`` entry exists and contains its items."""

    component = "functional"
    kind = "side_effect"
    fields = ("expected_files",)

    def score(self, data: CheckInput) -> Check | None:
        if data.result is None:
            return None
        return score_files(data.result.files, data.case.expected_files)

    def hints(self, check: Check) -> list[str]:
        return [] if check.passed else ["expected file missing or incomplete"]

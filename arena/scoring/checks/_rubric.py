"""The ``rubric`` check: a free-text criterion graded by the ``--grader`` LLM.

Keyword rules cannot grade a rubric: without an LLM grade the check does not score (the
combined score records why in ``details['rubric']``).
"""

from __future__ import annotations

from typing import ClassVar

from arena.scoring._types import Check
from arena.scoring.checks._base import (
    CheckInput,
    GoldenCheck,
    Weakening,
    golden_check,
    graded_check,
)


@golden_check("rubric", "a free-text rubric graded by the --grader LLM", order=80)
class RubricCheck(GoldenCheck):
    """The case's ``rubric``, as graded by an LLM grader."""

    component = "rubric"
    kind = "output"
    fields = ("rubric",)
    weakening: ClassVar[dict[str, Weakening]] = {"rubric": "single"}

    def score(self, data: CheckInput) -> Check | None:
        grade = data.rubric
        if not data.case.rubric or grade is None:
            return None
        return graded_check(grade)

    def hard_fails(self, check: Check) -> list[str]:
        error = check.details.get("error")
        return [f"rubric grader failed: {error}"] if error else []

    def hints(self, check: Check) -> list[str]:
        details = check.details
        if check.passed or details.get("error"):
            return []
        return [f"rubric not met ({details['grader']}: {details['rationale']})"]

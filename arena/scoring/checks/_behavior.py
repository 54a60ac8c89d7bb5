"""The ``behavior`` check: the expected non-task behaviour (refuse, ask, ...), graded.

The grade comes from the behaviour grader (keyword rules by default, an LLM with
``--grader``; see :mod:`arena.scoring._behavior`); a grader failure is a hard fail.
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


@golden_check(
    "behavior", "an expected behaviour (refuse, ask for clarification, ...), graded", order=60
)
class BehaviorCheck(GoldenCheck):
    """``expected_behavior`` shown in the output, as graded."""

    component = "behavior"
    kind = "behavior"
    fields = ("expected_behavior",)
    weakening: ClassVar[dict[str, Weakening]] = {"expected_behavior": "single"}

    def score(self, data: CheckInput) -> Check | None:
        grade = data.behavior
        if grade is None:
            return None
        return graded_check(grade)

    def hard_fails(self, check: Check) -> list[str]:
        error = check.details.get("error")
        return [f"behaviour grader failed: {error}"] if error else []

    def hints(self, check: Check) -> list[str]:
        details = check.details
        if check.passed or details.get("error"):
            return []
        return [
            f"behaviour {details['behavior']} not shown "
            f"({details['grader']}: {details['rationale']})"
        ]

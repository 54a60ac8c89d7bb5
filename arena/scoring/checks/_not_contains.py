"""The ``not_contains`` check: none of the forbidden strings in the output (a hard fail)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from arena.scoring._textmatch import first_alternative
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck, Weakening, golden_check


def score_not_contains(output: str, items: Sequence[str]) -> Check:
    """1 minus the fraction of forbidden strings present; passes only with no violation."""
    violations = [item for item in items if first_alternative(output, item) is not None]
    score = 1.0 - len(violations) / len(items) if items else 1.0
    return Check(score=score, passed=not violations, details={"violations": violations})


@golden_check(
    "not_contains", "the output contains none of the forbidden strings (a hard fail)", order=30
)
class NotContainsCheck(GoldenCheck):
    """The output contains none of ``expected_output_not_contains``."""

    fields = ("expected_output_not_contains",)
    weakening: ClassVar[dict[str, Weakening]] = {"expected_output_not_contains": "items"}
    guard = True

    def score(self, data: CheckInput) -> Check | None:
        items = data.case.expected_output_not_contains
        return score_not_contains(data.output, items) if items else None

    def hard_fails(self, check: Check) -> list[str]:
        found = check.details["violations"]
        return [f"output contains forbidden text: {found}"] if found else []

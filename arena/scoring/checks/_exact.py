"""The ``exact`` check: the output equals ``expected_output_exact`` (case and spaces aside)."""

from __future__ import annotations

from typing import ClassVar

from arena.scoring._textmatch import collapse_spaces, normalize_text
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck, Weakening, golden_check


def normalize_exact(text: str) -> str:
    """Casefolded, Unicode-normalised text with whitespace collapsed."""
    return collapse_spaces(normalize_text(text))


def score_exact(output: str, expected: str) -> Check:
    """1 when ``output`` equals ``expected`` after whitespace and case normalisation."""
    equal = normalize_exact(output) == normalize_exact(expected)
    return Check(score=1.0 if equal else 0.0, passed=equal, details={"expected": expected})


@golden_check("exact", "the output equals a string (case and whitespace normalised)", order=50)
class ExactCheck(GoldenCheck):
    """The output equals ``expected_output_exact``."""

    fields = ("expected_output_exact",)
    weakening: ClassVar[dict[str, Weakening]] = {"expected_output_exact": "single"}

    def score(self, data: CheckInput) -> Check | None:
        expected = data.case.expected_output_exact
        return None if expected is None else score_exact(data.output, expected)

    def hints(self, check: Check) -> list[str]:
        return ["output exact check failed"] if check.score < 1 else []

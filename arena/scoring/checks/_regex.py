"""The ``regex`` check: the output matches ``expected_output_regex`` somewhere."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from arena.inputs.linear_regex import nested_quantifiers
from arena.inputs.linear_regex import search as linear_search
from arena.scoring._types import Check
from arena.scoring.checks._base import (
    CheckInput,
    GoldenCheck,
    LintNote,
    Weakening,
    golden_check,
)

if TYPE_CHECKING:
    from arena.golden._models import GoldenCase

FLAGS = re.IGNORECASE | re.MULTILINE
"""How every expected regex is read (arena.inputs.linear_regex applies them on RE2)."""


def regex_search(pattern: str, text: str) -> str | None:
    """The first match of ``pattern`` in ``text`` (case-insensitive, multiline), or None.

    The one place an expected regex is matched (re.error on an invalid pattern).
    """
    match = linear_search(pattern, text)  # RE2: linear in the text (arena.inputs.linear_regex)
    return match.group(0) if match else None


def score_regex(output: str, pattern: str) -> Check:
    """1 when ``pattern`` is found anywhere in ``output`` (case-insensitive, multiline).

    An invalid pattern scores 0 and records the compile error.
    """
    try:
        found = regex_search(pattern, output)
    except re.error as exc:
        return Check(score=0.0, passed=False, details={"pattern": pattern, "error": str(exc)})
    return Check(
        score=1.0 if found is not None else 0.0,
        passed=found is not None,
        details={"pattern": pattern, "found": found},
    )


@golden_check(
    "regex", "the output matches a regular expression (case-insensitive, multiline)", order=40
)
class RegexCheck(GoldenCheck):
    """The output matches ``expected_output_regex``."""

    fields = ("expected_output_regex",)
    weakening: ClassVar[dict[str, Weakening]] = {"expected_output_regex": "single"}

    def score(self, data: CheckInput) -> Check | None:
        pattern = data.case.expected_output_regex
        return None if pattern is None else score_regex(data.output, pattern)

    def hints(self, check: Check) -> list[str]:
        return ["output regex check failed"] if check.score < 1 else []

    def lint(self, case: GoldenCase) -> list[LintNote]:
        """``nested_quantifier``: the regex repeats a group holding a repeat."""
        nested = nested_quantifiers(case.expected_output_regex or "")
        if not nested:
            return []
        return [
            LintNote(
                rule="nested_quantifier",
                message=f"expected_output_regex nests quantifiers in {', '.join(nested)}; on a "
                "backtracking engine such a pattern takes exponential time on a near miss (it "
                "runs on RE2 here, in linear time): tighten it, e.g. (\\w+\\s)*\\w+\\. for "
                "(\\w+\\s?)+\\.",
            )
        ]

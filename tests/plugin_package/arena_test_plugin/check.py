"""``max_words``: the answer has at most ``expected_output_max_words`` words (a hard fail)."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.extend import Check, CheckInput, GoldenCheck, golden_check


@golden_check("max_words", "the answer has at most expected_output_max_words words (a plugin's)")
class MaxWordsCheck(GoldenCheck):
    """The answer is short enough."""

    fields = ("expected_output_max_words",)
    extra_fields: ClassVar[dict[str, tuple[Any, Any]]] = {"expected_output_max_words": (int, None)}

    def score(self, data: CheckInput) -> Check | None:
        limit = getattr(data.case, "expected_output_max_words", None)
        if limit is None:
            return None
        words = len(data.output.split())
        return Check(score=float(words <= limit), passed=words <= limit, details={"words": words})

    def hard_fails(self, check: Check) -> list[str]:
        return [] if check.passed else [f"output too long: {check.details['words']} words"]

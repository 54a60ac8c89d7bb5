"""The ``contains`` check: every expected item (or one of its alternatives) in the output."""

from __future__ import annotations

from collections.abc import Sequence

from arena.registry import golden_check
from arena.scoring._textmatch import first_alternative
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck


def _label(item: str | list[str]) -> str | list[str]:
    return item if isinstance(item, str) else list(item)


def score_contains(output: str, items: Sequence[str | list[str]]) -> Check:
    """Fraction of expected items found in ``output``; passes when every item is found.

    Each item is a string or a list of alternatives of which any one suffices. Matching
    is case-insensitive and compares numbers by value (see ``arena.scoring._textmatch``).
    No items scores 1.
    """
    matched: list[dict[str, object]] = []
    missed: list[str | list[str]] = []
    for item in items:
        hit = first_alternative(output, item)
        if hit is None:
            missed.append(_label(item))
        else:
            matched.append({"item": _label(item), "found": hit})
    score = len(matched) / len(items) if items else 1.0
    return Check(score=score, passed=not missed, details={"matched": matched, "missed": missed})


def _short(item: object, limit: int = 3) -> str:
    if isinstance(item, list):
        shown = " | ".join(repr(x) for x in item[:limit])
        more = f" | ... (+{len(item) - limit})" if len(item) > limit else ""
        return f"[{shown}{more}]"
    return repr(item)


@golden_check(
    "contains", "the output contains each expected item (or one of its alternatives)", order=20
)
class ContainsCheck(GoldenCheck):
    """The output contains each item of ``expected_output_contains``."""

    fields = ("expected_output_contains",)

    def score(self, data: CheckInput) -> Check | None:
        items = data.case.expected_output_contains
        return score_contains(data.output, items) if items else None

    def hints(self, check: Check) -> list[str]:
        missed = check.details.get("missed")
        return ["output missing: " + ", ".join(_short(item) for item in missed)] if missed else []

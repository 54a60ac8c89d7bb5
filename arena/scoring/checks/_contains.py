"""The ``contains`` check: every expected item (or one of its alternatives) in the output.

Each item missing is a hard fail naming it (``output missing: 'refunded'``): a case that
says its answer must hold a string fails without it, whatever its other scores. An item
written ``{text, in: any_reply}`` may appear in any assistant message of the run (an
intermediate one before a tool call, or any reply of a dialogue), not only the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from arena.golden._calls import OutputItem, item_anywhere, item_text
from arena.records.results import RunResult
from arena.scoring._textmatch import first_alternative
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck, Weakening, golden_check

ANY_REPLY = " (in any reply)"
"""Appended to the label of a missed ``in: any_reply`` item."""


def _label(item: str | list[str]) -> str | list[str]:
    return item if isinstance(item, str) else list(item)


def run_replies(result: RunResult | None) -> list[str]:
    """Every assistant text of a run: its recorded messages and a dialogue's replies."""
    if result is None:
        return []
    replies = list(result.replies)
    if result.dialogue is not None:
        replies += [turn.reply for turn in result.dialogue.turns]
    return replies


def score_contains(output: str, items: Sequence[OutputItem], replies: Sequence[str] = ()) -> Check:
    """Fraction of expected items found in ``output``; passes when every item is found.

    Each item is a string or a list of alternatives of which any one suffices, or a
    ``{text, in}`` item: with ``in: any_reply`` any of ``replies`` (or ``output``) may hold
    it. Matching is case-insensitive and compares numbers by value (see
    ``arena.scoring._textmatch``). No items scores 1.
    """
    matched: list[dict[str, object]] = []
    missed: list[str | list[str]] = []
    anywhere: list[int] = []
    for item in items:
        text = item_text(item)
        places = [output, *replies] if item_anywhere(item) else [output]
        hit = next((h for p in places if (h := first_alternative(p, text)) is not None), None)
        if hit is None:
            if item_anywhere(item):
                anywhere.append(len(missed))
            missed.append(_label(text))
        else:
            matched.append({"item": _label(text), "found": hit})
    score = len(matched) / len(items) if items else 1.0
    details: dict[str, object] = {"matched": matched, "missed": missed}
    if anywhere:
        details["missed_anywhere"] = anywhere
    return Check(score=score, passed=not missed, details=details)


def item_label(item: object, limit: int = 3) -> str:
    """An expected item as reasons show it: `'text'`, or `['a' | 'b' | ... (+2)]`."""
    if isinstance(item, list):
        shown = " | ".join(repr(x) for x in item[:limit])
        more = f" | ... (+{len(item) - limit})" if len(item) > limit else ""
        return f"[{shown}{more}]"
    return repr(item)


@golden_check(
    "contains", "the output contains each expected item (or one of its alternatives)", order=20
)
class ContainsCheck(GoldenCheck):
    """The output contains each item of ``expected_output_contains``; each miss is hard."""

    fields = ("expected_output_contains",)
    weakening: ClassVar[dict[str, Weakening]] = {"expected_output_contains": "items"}

    def score(self, data: CheckInput) -> Check | None:
        items = data.case.expected_output_contains
        return score_contains(data.output, items, run_replies(data.result)) if items else None

    def hard_fails(self, check: Check) -> list[str]:
        """Each missed item, named: ``output missing: 'refunded'``."""
        anywhere = set(check.details.get("missed_anywhere", []))
        return [
            f"output missing: {item_label(item)}{ANY_REPLY if i in anywhere else ''}"
            for i, item in enumerate(check.details.get("missed", []))
        ]

"""Which checks an edit of a golden case removed (``arena.ci._previous.weakened_checks``)."""

from __future__ import annotations

from typing import Any

from arena.ci._previous import weakened_checks
from arena.golden import GoldenCase

BEFORE: dict[str, Any] = {
    "id": "H-1",
    "input": "What is the status of invoice INV-100?",
    "category": "billing",
    "tier": "critical",
    "expected_tools": ["lookup_invoice"],
    "expected_output_contains": ["paid", ["$42", "42.00"]],
    "expected_route": ["router", "billing:tools"],
    "forbidden_nodes": ["decline"],
    "max_supersteps": 3,
    "expected_output_regex": "INV-\\d+",
}


def _case(**changes: Any) -> GoldenCase:
    fields = {**BEFORE, **changes}
    return GoldenCase.model_validate({k: v for k, v in fields.items() if v is not None})


def test_an_edit_that_keeps_every_check_weakens_nothing() -> None:
    after = _case(input="Status of INV-100, please?", expected_tools=["lookup_invoice", "x"])
    assert weakened_checks(_case(), after) == []


def test_every_removed_or_loosened_check_is_named() -> None:
    after = _case(
        expected_tools=[],
        expected_output_contains=["paid"],
        expected_route=["router"],
        forbidden_nodes=None,
        max_supersteps=6,
        expected_output_regex=None,
        acceptable_tools=[["escalate"]],
    )
    assert weakened_checks(_case(), after) == [
        'expected_tools lost "lookup_invoice"',
        'expected_output_contains lost ["$42", "42.00"]',
        'expected_route lost "billing:tools"',
        'forbidden_nodes lost "decline"',
        "expected_output_regex removed",
        'acceptable_tools gained ["escalate"]',
        "max_supersteps 3 -> 6",
    ]


def test_a_limit_removed_is_named() -> None:
    assert weakened_checks(_case(), _case(max_supersteps=None)) == ["max_supersteps 3 -> none"]

"""The store-support cases written the way the docs taught before issue 45: the lookup and each
write in ``expected_tools``, per tool the arguments common to its calls in ``expected_args``,
every write the case does not need in ``forbidden_tools``, the required strings in
``expected_output_contains`` (no end state). What main's scorer was given; the scoring-cost
benchmark's side without the new checks."""

from __future__ import annotations

from typing import Any

from tests.examples.store_support.reference import concrete
from tests.examples.store_support.store import SIDE_EFFECTING

NEW_FIELDS = ("expected_calls", "calls_match", "allow_extra_calls", "expected_state")


def old_case(case: dict[str, Any]) -> dict[str, Any]:
    """One case (a golden file's JSON) with its issue-45 fields written the old way."""
    calls = case["expected_calls"]
    tools = list(dict.fromkeys(c["tool"] for c in calls))
    args = {}
    for tool in tools:
        given = [{k: concrete(v) for k, v in c["args"].items()} for c in calls if c["tool"] == tool]
        common = {k: v for k, v in given[0].items() if all(g.get(k) == v for g in given)}
        if common:
            args[tool] = common
    old = {k: v for k, v in case.items() if k not in NEW_FIELDS}
    old["expected_output_contains"] = [
        item["text"] if isinstance(item, dict) else item
        for item in case["expected_output_contains"]
    ]
    old.update(
        expected_tools=tools,
        expected_args=args,
        forbidden_tools=[t for t in SIDE_EFFECTING if t not in tools],
    )
    return old


def old_dataset(raw: dict[str, Any]) -> dict[str, Any]:
    """A golden file's JSON with every case written the old way."""
    return {**raw, "test_cases": [old_case(c) for c in raw["test_cases"]]}


def both_dataset(raw: dict[str, Any]) -> dict[str, Any]:
    """A golden file's JSON with every case carrying the old fields and the new ones: the old
    checks and issue 45's on top (the scoring-cost benchmark's side with the new checks)."""
    cases = [
        {**old_case(c), **{k: c[k] for k in (*NEW_FIELDS, "expected_output_contains") if k in c}}
        for c in raw["test_cases"]
    ]
    return {**raw, "test_cases": cases}

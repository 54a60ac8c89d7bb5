"""The state-based reference reward of the store-support example, the way tau-bench scores an
agent: replay the case's expected calls on a fresh store, replay the agent's calls on another,
compare every record of the two, and require each required string in some reply of the agent.
It knows nothing of arena's scorer; it reads the golden case's fields as plain data."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from tests.examples.store_support.store import Records, Store, StoreError


def concrete(value: Any) -> Any:
    """The literal value an expected argument stands for (a matcher's list or value)."""
    if isinstance(value, Mapping) and len(value) == 1:
        ((key, inner),) = value.items()
        if key in ("unordered", "exact"):
            return inner
    return value


def replay(calls: Sequence[tuple[str, Mapping[str, Any]]]) -> Records:
    """The records of a fresh store after these calls (a refused call changes nothing)."""
    store = Store()
    for tool, args in calls:
        with contextlib.suppress(StoreError, TypeError):
            store.call(tool, {name: concrete(v) for name, v in args.items()})
    return store.snapshot()


def required_texts(case: Mapping[str, Any]) -> list[list[str]]:
    """Each required output as its alternatives."""
    texts: list[list[str]] = []
    for item in case.get("expected_output_contains", []):
        text = item["text"] if isinstance(item, Mapping) else item
        texts.append([text] if isinstance(text, str) else list(text))
    return texts


def reference_reward(
    case: Mapping[str, Any],
    calls: Sequence[tuple[str, Mapping[str, Any]]],
    replies: Sequence[str],
) -> bool:
    """1 (True) when the agent's calls leave the store exactly as the case's expected calls
    do and every required string is in some reply; else 0 (False)."""
    expected = [(c["tool"], c["args"]) for c in case["expected_calls"]]
    if replay(calls) != replay(expected):
        return False
    said = [r.lower() for r in replies]  # as tau-bench does: case aside
    return all(
        any(t.lower() in r for t in alternatives for r in said)
        for alternatives in required_texts(case)
    )

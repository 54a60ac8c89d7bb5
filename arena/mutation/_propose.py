"""What would kill a survivor: an edit of the golden case that exercises its target, or,
for a tool no case calls, a pending case to write.

An edit names the case, the field and the value to add: a value of the tool's real result
that the original's answer gives and the query does not (``expected_output_contains``), or
the tool itself (``expected_tools``) when the case does not expect it. A swap of two tools
is only ever met by a value check: both names are still called. Nothing is proposed when
the cases already check what the edit would add (the reason says why it survived).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from arena.curation._grow import next_case_id
from arena.golden import GoldenCase, GoldenDataset
from arena.mutation._mutant import Mutation
from arena.mutation._order import called, expects, tool_targets
from arena.mutation._why import checks_tool, expected_texts, observations
from arena.records.results import RunResult
from arena.secrets import redact

_VALUE = re.compile(r"\d+(?:[.:/-]\d+)*")


def _value(case: GoldenCase, results: Sequence[RunResult], tool: str) -> str | None:
    """A number of ``tool``'s real result that the answer gives, the query does not, the case
    does not already expect, and no key holds."""
    answers = " ".join(r.output for r in results).lower()
    query = case.input.lower()
    known = {t.lower() for t in expected_texts(case)}
    for value in _VALUE.findall(" ".join(observations(results, [tool]))):
        fresh = value not in query and value not in known and redact(value) == value
        if fresh and value in answers:
            return value
    return None


def _edit(case: GoldenCase, field: str, value: str) -> dict[str, str]:
    return {"case": case.id, "field": field, "add": value}


def _edits(
    operator: str, tools: Sequence[str], cases: Sequence[GoldenCase],
    original: Mapping[str, Sequence[RunResult]],
) -> list[dict[str, str]]:  # fmt: skip
    edits: list[dict[str, str]] = []
    for case in cases:
        results = original.get(case.id, ())
        for tool in (t for t in tools if called(results, t)):
            value = None
            if operator != "tool_removed" and not checks_tool(case, results, [tool]):
                value = _value(case, results, tool)
            if value is not None:
                edits.append(_edit(case, "expected_output_contains", value))
            elif operator != "tools_swapped" and not expects(case, tool):
                edits.append(_edit(case, "expected_tools", tool))
    return edits


def _fresh_id(dataset: GoldenDataset, category: str, taken: set[str]) -> str:
    prefix, _, number = next_case_id(dataset, category).rpartition("-")
    n = int(number)
    while f"{prefix}-{n:03d}" in taken:
        n += 1
    taken.add(f"{prefix}-{n:03d}")
    return f"{prefix}-{n:03d}"


def _new_case(
    tools: list[str], why: str, mutation: Mutation, dataset: GoldenDataset, taken: set[str]
) -> dict[str, Any]:
    """A pending case to write for a tool no case calls, in the category of a case that
    expects the tool (else the first case's)."""
    expecting = [c for c in dataset.test_cases if any(expects(c, t) for t in tools)]
    category = (expecting or dataset.test_cases)[0].category
    return {
        "id": _fresh_id(dataset, category, taken),
        "input": f"TODO: a request that only {' and '.join(tools)} can answer",
        "category": category,
        "tier": "pending",
        "expected_tools": tools,
        "notes": "Write the request and what the answer must contain from the tool's result.",
        "reason": f"{mutation.id}: {why}",
    }


def propose(
    operator: str,
    kind: str,
    mutation: Mutation,
    why: str,
    cases: Sequence[GoldenCase],
    original: Mapping[str, Sequence[RunResult]],
    dataset: GoldenDataset,
    dataset_path: str = "",
    taken: set[str] | None = None,
) -> dict[str, Any] | None:
    """What would kill the survivor.

    Returns:
        ``{"dataset", "edits": [{"case", "field", "add"}]}`` for the cases that exercise it;
        ``{"case": {...}}``, a pending case to write (its id not in ``taken``, which it
        joins), for a tool no case calls; None when no edit would (a config or conversation
        mutant, or cases that already check the tool's result).
    """
    if kind != "tool" or not cases:
        return None
    tools = tool_targets(mutation)
    if not any(called(original.get(c.id, ()), t) for c in cases for t in tools):
        return {"case": _new_case(tools, why, mutation, dataset, set() if taken is None else taken)}
    edits = _edits(operator, tools, cases, original)
    return {"dataset": dataset_path, "edits": edits} if edits else None

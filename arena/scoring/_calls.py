"""Exact calls: a case's ``expected_calls`` matched one to one, and the side-effect rule.

Only calls that **count** (:func:`arena.scoring._required.counts_as_call`) are matched. An
expectation takes a call of its tool whose arguments match (:func:`args_reason`: exactly the
named arguments, unless ``other_args: allow``; each value by
:func:`arena.scoring._matchers.match_value`); a call satisfies one expectation only. The
case's ``calls_match``:

* ``in_order`` (the default): the expectations take calls in their order (other calls may
  come between them, subject to the side-effect rule);
* ``unordered``: one to one, in any order (a maximum matching);
* ``strict``: the counting calls are exactly the expectations, in their order.

**The side-effect rule**: a counting call to a tool the agent declares side-effecting
(``RunResult.side_effecting``) that no expectation took is a hard fail naming the call, unless
the case lists the tool in ``allow_extra_calls``. A case without ``expected_calls`` allows each
side-effecting tool as many calls as its tool expectations list it (``expected_tools``,
``expected_order``, the largest ``acceptable_tools`` alternative, a conversation's per-turn
``tools``). Read-only tools may repeat.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.golden._calls import ExpectedCall
from arena.golden._models import GoldenCase
from arena.records.results import TrajectoryStep
from arena.scoring._matchers import match_value, show

_EXCEPTION = re.compile(r"(?:Error: )?((?:[A-Za-z_]\w*\.)*[A-Z]\w*)(?:\(|:|$)")
"""An exception's name at the head of a call's error: ``KeyError: 'u-9'`` (the tool raised),
``Error: KeyError('u-9')`` (``ToolNode`` caught it)."""


def call_failure(step: TrajectoryStep) -> str:
    """Why a call failed, as a phrase after "was called but" or "its call"."""
    if step.unavailable:
        return "was refused: the tool is unavailable to this variant"
    error = step.error or ""
    found = _EXCEPTION.match(error)
    name = found.group(1).rsplit(".", 1)[-1] if found else ""
    name = "" if name == "Error" else name
    if "timeout" in name.lower() or "timed out" in error.lower():
        return "timed out"
    return f"raised {name}" if name else "returned an error"


def call_label(step: TrajectoryStep) -> str:
    """A call as ``tool(name="value", ...)``."""
    inside = ", ".join(f"{name}={show(value)}" for name, value in step.args.items())
    return f"{step.tool}({inside})"


def args_reason(expected: ExpectedCall, actual: Mapping[str, Any]) -> str | None:
    """None when ``actual`` arguments satisfy the expectation, else the first difference
    (``order_id: expected "#W2", got "#W9"``)."""
    for name, want in expected.args.items():
        if name not in actual:
            return f"{name} missing"
        reason = match_value(want, actual[name])
        if reason is not None:
            return f"{name}: {reason}"
    if expected.other_args == "forbid":
        extra = [name for name in actual if name not in expected.args]
        if extra:
            return f"{extra[0]}={show(actual[extra[0]])} not expected"
    return None


@dataclass
class CallsVerdict:
    """How a run's counting calls met the case's ``expected_calls``.

    ``taken`` maps each met expectation's index to the index (in the counting calls) of the
    call it took; ``missed`` says, per expectation or order rule broken, what went wrong.
    """

    taken: dict[int, int] = field(default_factory=dict)
    missed: list[str] = field(default_factory=list)

    def score(self, expected: int) -> float:
        """The share of expectations met (1 when none is expected)."""
        return 1.0 if expected == 0 else len(self.taken) / expected


def _fits(expected: Sequence[ExpectedCall], calls: Sequence[TrajectoryStep]) -> list[list[bool]]:
    return [[c.tool == e.tool and args_reason(e, c.args) is None for c in calls] for e in expected]


def _in_order(fits: list[list[bool]]) -> dict[int, int] | None:
    """The earliest in-order assignment (optimal for a subsequence), None if none exists."""
    taken: dict[int, int] = {}
    start = 0
    for i, row in enumerate(fits):
        j = next((j for j in range(start, len(row)) if row[j]), None)
        if j is None:
            return None
        taken[i], start = j, j + 1
    return taken


def _one_to_one(fits: list[list[bool]], n_calls: int) -> dict[int, int]:
    """A maximum matching of expectations to calls (expectation -> call)."""
    owner: dict[int, int] = {}  # call -> expectation

    def place(i: int, seen: set[int]) -> bool:
        for j in range(n_calls):
            if fits[i][j] and j not in seen:
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(fits)):
        place(i, set())
    return {i: j for j, i in owner.items()}


def _why_missed(
    expected: ExpectedCall,
    calls: Sequence[TrajectoryStep],
    failed: Sequence[TrajectoryStep],
    taken: Collection[int],
) -> str:
    label = expected.label()
    same = [c for j, c in enumerate(calls) if c.tool == expected.tool and j not in taken]
    if same:
        reason = args_reason(expected, same[0].args) or "it met another expectation"
        others = f" (and {len(same) - 1} other call(s))" if len(same) > 1 else ""
        return f"{label} was not called: {call_label(same[0])}{others} differs, {reason}"
    if any(c.tool == expected.tool for c in calls):
        return f"{label} was not called: each call of {expected.tool} met another expectation"
    tried = [s for s in failed if s.tool == expected.tool]
    if tried:
        return f"{label} was not called: its call {call_failure(tried[-1])}"
    return f"{label} was not called: {expected.tool} was never called"


def match_calls(
    calls: Sequence[TrajectoryStep],
    case: GoldenCase,
    failed: Sequence[TrajectoryStep] = (),
) -> CallsVerdict:
    """Match the counting ``calls`` against ``case.expected_calls`` in its ``calls_match``
    mode; ``failed`` (calls that do not count) only explain a miss."""
    expected = list(case.expected_calls)
    mode = case.calls_match or "in_order"
    fits = _fits(expected, calls)
    matching = _one_to_one(fits, len(calls))
    verdict = CallsVerdict(taken=matching)
    for i, call in enumerate(expected):
        if i not in matching:
            verdict.missed.append(_why_missed(call, calls, failed, set(matching.values())))
    if verdict.missed or mode == "unordered":
        return verdict
    ordered = _in_order(fits)
    if ordered is None:
        verdict.missed.append(
            f"calls out of the expected order: expected "
            f"{' → '.join(c.label() for c in expected)}, got "
            f"{' → '.join(call_label(c) for c in calls)}"
        )
        return verdict
    verdict.taken = ordered
    if mode == "strict" and len(calls) != len(expected):
        extra = [c for j, c in enumerate(calls) if j not in set(ordered.values())]
        verdict.missed.extend(
            f"{call_label(c)} was called: not expected (calls_match: strict)" for c in extra
        )
    return verdict


def _allowed_counts(case: GoldenCase) -> Counter[str]:
    """How many calls of each tool a case without ``expected_calls`` expects (at most)."""
    counts = Counter(case.expected_tools) | Counter(case.expected_order)
    for alternative in case.acceptable_tools:
        counts |= Counter(alternative)
    if case.conversation is not None:
        counts |= Counter(tool for expect in case.conversation.expect for tool in expect.tools)
    return counts


def extra_side_effects(
    calls: Sequence[TrajectoryStep],
    case: GoldenCase,
    side_effecting: Collection[str],
    taken: Collection[int] = (),
) -> list[str]:
    """Each counting call of a side-effecting tool beyond what the case expects, in words.

    ``taken`` are the indexes (in ``calls``) the case's ``expected_calls`` took; without
    ``expected_calls`` the first calls of a tool, as many as its tool expectations list,
    are expected.
    """
    effecting = set(side_effecting) - set(case.allow_extra_calls)
    if not effecting:
        return []
    allowed = Counter[str]() if case.expected_calls else _allowed_counts(case)
    seen: Counter[str] = Counter()
    out: list[str] = []
    for j, call in enumerate(calls):
        if call.tool not in effecting or j in taken:
            continue
        seen[call.tool] += 1
        if seen[call.tool] > allowed[call.tool]:
            out.append(f"{call_label(call)} was called: not expected (side-effecting)")
    return out

"""Required actions: the calls a case's tool expectations ask for, checked as hard rules.

A call **counts** (it can satisfy ``expected_tools``, ``expected_order``, ``expected_args``,
``expected_calls`` or a turn's ``tools``) when it ran without an error, or when its tool is one
of the case's ``expected_tool_errors`` and it ran but raised, timed out or returned an error. A
call to a tool the variant lacks (``TrajectoryStep.unavailable``) never counts.

:func:`missed_actions` lists, in words, every expectation the counting calls leave unmet,
naming the tool and why (``reset_password was called but raised KeyError``); the trajectory
check makes each one a hard fail, so no other met check can buy it back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

from arena.golden._models import GoldenCase
from arena.records.results import TrajectoryStep
from arena.scoring._args import args_fraction
from arena.scoring._calls import call_failure, extra_side_effects, match_calls
from arena.scoring._trajectory import lcs_ratio


def counts_as_call(step: TrajectoryStep, expected_errors: Collection[str] = ()) -> bool:
    """True when ``step`` can satisfy a tool expectation (see the module docstring)."""
    if step.unavailable:
        return False
    return step.error is None or step.tool in expected_errors


def _said(tool: str, wanted: int, made: int, failed: list[TrajectoryStep]) -> str:
    """What became of the calls a case wanted of ``tool``."""
    if failed:
        return f"{tool} was called but {call_failure(failed[-1])}"
    if made == 0:
        return f"{tool} was never called"
    return f"{tool} was called {made} time(s) of the {wanted} expected"


class _Calls:
    """A run's calls split into those that count and those that failed."""

    def __init__(self, steps: Sequence[TrajectoryStep], case: GoldenCase) -> None:
        self.good = [s for s in steps if counts_as_call(s, case.expected_tool_errors)]
        self.failed = [s for s in steps if not counts_as_call(s, case.expected_tool_errors)]
        self.names = [s.tool for s in self.good]
        self.said: set[str] = set()

    def failed_of(self, tool: str) -> list[TrajectoryStep]:
        return [s for s in self.failed if s.tool == tool]

    def missing(self, wanted: Sequence[str]) -> list[str]:
        """Each tool ``wanted`` asks for more often than it counted, said once."""
        short = Counter(wanted) - Counter(self.names)
        made = Counter(self.names)
        out = []
        for tool in sorted(short):
            if tool not in self.said:
                self.said.add(tool)
                out.append(_said(tool, Counter(wanted)[tool], made[tool], self.failed_of(tool)))
        return out


def _missed_tools(calls: _Calls, alternatives: list[list[str]]) -> list[str]:
    if not alternatives or any(not alt for alt in alternatives):
        return []  # "no tools" is acceptable: nothing is required
    shortfalls = [sum((Counter(alt) - Counter(calls.names)).values()) for alt in alternatives]
    if min(shortfalls) == 0:
        return []
    closest = alternatives[shortfalls.index(min(shortfalls))]
    missed = calls.missing(closest)
    if len(alternatives) > 1:
        missed = [f"{text} (no acceptable tool set was completed)" for text in missed]
    return missed


def _missed_order(calls: _Calls, order: list[str]) -> list[str]:
    if not order or lcs_ratio(calls.names, order) == 1.0:
        return []
    if Counter(order) - Counter(calls.names):
        return calls.missing(order)  # what the tools check has not said yet
    return [
        f"calls out of the expected order: expected {' → '.join(order)}, "
        f"got {' → '.join(calls.names)}"
    ]


def _missed_args(calls: _Calls, expected_args: dict[str, dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for tool, expected in expected_args.items():
        if any(args_fraction(expected, s.args) == 1.0 for s in calls.good if s.tool == tool):
            continue
        failed = calls.failed_of(tool)
        matching = [s for s in failed if args_fraction(expected, s.args) == 1.0]
        if matching:
            out.append(
                f"{tool} was called with the expected arguments but {call_failure(matching[-1])}"
            )
        elif tool in calls.said:
            continue
        elif any(s.tool == tool for s in calls.good):
            out.append(f"{tool} was not called with the expected arguments {expected}")
        else:
            out.append(_said(tool, 1, 0, failed))
        calls.said.add(tool)
    return out


def missed_actions(
    steps: Sequence[TrajectoryStep],
    case: GoldenCase,
    alternatives: list[list[str]],
    side_effecting: Collection[str] = (),
) -> list[str]:
    """Every required action of ``case`` its run left undone, and every side-effecting call
    it made beyond them, each naming the tool and why.

    ``alternatives`` are the acceptable tool sets (``expected_tools`` among them); the
    expected tools are met when the counting calls include one of them, the expected order
    when it is a subsequence of the counting calls, the expected arguments when a counting
    call of each tool satisfies all of its arguments, the expected calls when they take
    counting calls one to one (:mod:`arena.scoring._calls`). ``side_effecting`` are the tools
    the agent declares side-effecting: a counting call of one that the case does not expect
    is listed too. Empty when every one is met.
    """
    calls = _Calls(steps, case)
    verdict = match_calls(calls.good, case, calls.failed)
    return [
        *_missed_tools(calls, alternatives),
        *_missed_order(calls, list(case.expected_order)),
        *_missed_args(calls, dict(case.expected_args)),
        *verdict.missed,
        *extra_side_effects(calls.good, case, side_effecting, set(verdict.taken.values())),
    ]

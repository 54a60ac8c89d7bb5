"""The ``trajectory`` check: tool selection, order, arguments, efficiency and forbidden tools.

Its hard fails: a forbidden tool called, every required action missed (an expected tool,
the expected order, expected arguments or an expected call left unmet by the calls that count,
see :mod:`arena.scoring._required`), and every call of a side-effecting tool the case does not
expect (:mod:`arena.scoring._calls`).

The scorer is :func:`arena.scoring._tool_use.score_trajectory` (its weights are documented
there); this module holds what the check reads and the reasons it gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from arena.golden._matcher_syntax import loose_args
from arena.scoring._tool_use import score_trajectory
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


@golden_check(
    "trajectory",
    "tool selection, order, arguments, efficiency and forbidden tools (always)",
    order=10,
)
class TrajectoryCheck(GoldenCheck):
    """The tools called against the case's expected trajectory; always applies."""

    component = "trajectory"
    kind = "trajectory"
    fields = (
        "expected_tools",
        "expected_order",
        "expected_args",
        "forbidden_tools",
        "acceptable_tools",
        "max_steps",
        "min_tool_calls",
        "expected_tool_errors",
        "expected_calls",
        "calls_match",
        "allow_extra_calls",
    )
    weakening: ClassVar[dict[str, Weakening]] = {
        "expected_tools": "items",
        "expected_order": "items",
        "expected_args": "mapping",
        "forbidden_tools": "items",
        "acceptable_tools": "allowance",
        "max_steps": "limit",
        "min_tool_calls": "floor",
        "expected_tool_errors": "allowance",
        "expected_calls": "items",
        "calls_match": "none",  # how the calls match, not what they must be
        "allow_extra_calls": "allowance",
    }

    def applies(self, case: object) -> bool:
        return True

    def score(self, data: CheckInput) -> Check | None:
        if data.result is None:
            return None
        return score_trajectory(data.result, data.case, data.available_tools)

    def subscores(self, check: Check) -> dict[str, float]:
        return dict(check.details["components"])

    def hard_fails(self, check: Check) -> list[str]:
        """A forbidden call, and every required action missed (each names its tool)."""
        fails: list[str] = []
        violations = check.details.get("forbidden", {}).get("violations", [])
        if violations:
            fails.append(f"forbidden tool called: {', '.join(sorted(set(violations)))}")
        fails.extend(check.details.get("missed", []))
        return fails

    def lint(self, case: GoldenCase) -> list[LintNote]:
        """``approximate_args``: an ``expected_args`` value that passes a wrong call."""
        loose = loose_args(case.expected_args, case.expected_tools)
        if not loose:
            return []
        return [
            LintNote(
                rule="approximate_args",
                message=f"expected_args {'; '.join(loose)}. Write the calls as expected_calls "
                "(exact by default): `arena golden migrate` rewrites the cases it can",
            )
        ]

    def hints(self, check: Check) -> list[str]:
        details = check.details
        hints: list[str] = []
        if details["components"]["selection"] < 1:
            hints.append(
                f"tools {details['tools']} vs expected {details['selection']['reference']}"
            )
        if details["hallucinated_tools"]:
            hints.append(f"unknown tools called: {', '.join(details['hallucinated_tools'])}")
        return hints

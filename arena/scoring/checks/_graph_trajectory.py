"""The ``graph_trajectory`` check: a LangGraph agent's path against the case's
``expected_graph_trajectory`` (an agentevals graph-trajectory reference), by agentevals'
strict rule: as many agent turns as the reference, each turn's node names equal to its
names, in order (``__start__`` entries dropped from both sides, see
:mod:`arena.golden._graph_trajectory`).

The score is the share of turns that match (over the longer of the two); a mismatch is a
hard fail naming the first turn that differs: ``graph trajectory turn 1: router -> decline,
expected router -> support -> audit``. A result without a path (a plain Runnable) is not
checked.
"""

from __future__ import annotations

from typing import Any, ClassVar

from arena.golden._graph_trajectory import without_start
from arena.records.graph_path import NodePath, route_text
from arena.records.graph_trajectory import graph_steps, strict_steps_match
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck, Weakening, golden_check


def score_graph_trajectory(path: NodePath, reference: list[list[str]]) -> Check:
    """The strict match of ``path``'s agentevals steps against ``reference``'s."""
    mine, theirs = without_start(graph_steps(path)), without_start(reference)
    matched = strict_steps_match(mine, theirs)
    same = sum(a == b for a, b in zip(mine, theirs, strict=False))
    failures: list[str] = []
    if not matched:
        failures.append(_first_difference(mine, theirs))
    return Check(
        score=same / max(len(mine), len(theirs), 1),
        passed=matched,
        details={"steps": mine, "expected": theirs, "failures": failures},
    )


def _first_difference(mine: list[list[str]], theirs: list[list[str]]) -> str:
    for turn, (a, b) in enumerate(zip(mine, theirs, strict=False), start=1):
        if a != b:
            return f"graph trajectory turn {turn}: {route_text(a)}, expected {route_text(b)}"
    return f"graph trajectory: {len(mine)} turn(s), expected {len(theirs)}"


@golden_check(
    "graph_trajectory",
    "a LangGraph agent's path against an agentevals graph-trajectory reference",
    order=110,
)
class GraphTrajectoryCheck(GoldenCheck):
    """The graph path against an agentevals reference; only for a result that has a path."""

    component = "graph_trajectory"
    kind = "trajectory"
    fields = ("expected_graph_trajectory",)
    weakening: ClassVar[dict[str, Weakening]] = {"expected_graph_trajectory": "single"}

    def score(self, data: CheckInput) -> Check | None:
        reference = data.case.expected_graph_trajectory
        if data.result is None or data.result.nodes is None or reference is None:
            return None
        return score_graph_trajectory(data.result.nodes, [list(t) for t in reference.steps])

    def hard_fails(self, check: Check) -> list[str]:
        """The first turn that differs (or the turn counts)."""
        failures: list[Any] = check.details["failures"]
        return [str(text) for text in failures]

"""The ``route`` check: a LangGraph agent's path through its graph against the case's route
expectations (``expected_route`` with ``route_match``, ``forbidden_nodes``,
``max_supersteps``), on the whole run and on each conversation turn that sets them.

The route compared is the full names of the nodes that ran, in order (``NodePath.route``):
the top-level nodes, plus the nodes of a sub-graph the expected route names a node of
(``support:tools`` brings in every ``support:*`` node). ``in_order`` asks the expected route
to be a subsequence of it, ``strict`` / ``unordered`` / ``superset`` are the tool
trajectory's modes (:func:`arena.scoring._match.match_trajectory`). ``forbidden_nodes`` match
the full names of every node that ran; ``max_supersteps`` bounds the top-level supersteps (a
run stopped at LangGraph's recursion limit fails whenever the check applies).

The score is the mean of the parts that apply (the route's partial credit; 1 minus 0.5 per
forbidden node run; 1 within the superstep bound, else 0), averaged over the scopes (the
case, each turn); every part missed is a hard fail naming it, like a missed required action:
``route router -> decline, expected router -> support``. A result without a path (the agent
is not a compiled graph) is not checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from arena.golden._route import DEFAULT_ROUTE_MATCH, ROUTE_FIELDS
from arena.records.graph_path import NodePath, route_parents, route_text
from arena.scoring._match import ToolCall, match_trajectory
from arena.scoring._trajectory import FORBIDDEN_PENALTY, lcs_ratio
from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck, Weakening, golden_check

if TYPE_CHECKING:
    from arena.golden._conversation import TurnExpect
    from arena.golden._models import GoldenCase


@dataclass(frozen=True)
class RouteExpect:
    """The route fields of one scope: the whole run (``turn`` None) or one turn."""

    turn: int | None
    expected_route: Sequence[str]
    route_match: str
    forbidden_nodes: Sequence[str]
    max_supersteps: int | None

    @classmethod
    def of(cls, source: GoldenCase | TurnExpect, turn: int | None) -> RouteExpect:
        """The route fields of a case (``turn`` None) or of a turn's expectation."""
        return cls(
            turn=turn,
            expected_route=list(source.expected_route),
            route_match=source.route_match or DEFAULT_ROUTE_MATCH,
            forbidden_nodes=list(source.forbidden_nodes),
            max_supersteps=source.max_supersteps,
        )

    @property
    def empty(self) -> bool:
        return not (self.expected_route or self.forbidden_nodes or self.max_supersteps)


def route_score(route: Sequence[str], expected: Sequence[str], mode: str) -> tuple[float, bool]:
    """Partial credit and the verdict of ``expected`` against ``route`` under ``mode``."""
    if mode == "in_order":
        score = lcs_ratio(route, expected)
        return score, score == 1.0
    found = match_trajectory(
        [ToolCall(name=n) for n in route],
        [ToolCall(name=n) for n in expected],
        mode,  # type: ignore[arg-type]  # strict, unordered or superset
        "ignore",
    )
    return found.score, found.matched


def check_scope(path: NodePath, expect: RouteExpect) -> dict[str, Any]:
    """One scope's verdict: its parts' scores, its route, and what it missed in words."""
    label = "" if expect.turn is None else f"turn {expect.turn}: "
    turns = path.turn_supersteps
    if expect.turn is not None and expect.turn > len(turns):
        return {"turn": expect.turn, "parts": {}, "failures": [f"{label}never reached"]}
    parts: dict[str, float] = {}
    failures: list[str] = []
    route = path.route(expect.turn, within=route_parents(expect.expected_route))
    if expect.expected_route:
        parts["route"], met = route_score(route, expect.expected_route, expect.route_match)
        if not met:
            mode = "" if expect.route_match == DEFAULT_ROUTE_MATCH else f" ({expect.route_match})"
            failures.append(
                f"{label}route {route_text(route)}, expected "
                f"{route_text(list(expect.expected_route))}{mode}"
            )
    steps = path.steps if expect.turn is None else path.of_turn(expect.turn)
    if expect.forbidden_nodes:
        banned = [s.name for s in steps if s.name in set(expect.forbidden_nodes)]
        parts["forbidden"] = max(0.0, 1.0 - FORBIDDEN_PENALTY * len(banned))
        if banned:
            names = ", ".join(dict.fromkeys(banned))
            failures.append(f"{label}forbidden node ran: {names}")
    supersteps = path.supersteps if expect.turn is None else turns[expect.turn - 1]
    if expect.max_supersteps is not None:
        parts["supersteps"] = float(supersteps <= expect.max_supersteps)
        if supersteps > expect.max_supersteps:
            failures.append(
                f"{label}{supersteps} supersteps, at most {expect.max_supersteps} expected"
            )
    if path.recursion_limit_hit and expect.turn is None:
        failures.append("stopped at the recursion limit")
    return {
        "turn": expect.turn,
        "route": route,
        "supersteps": supersteps,
        "parts": parts,
        "failures": failures,
    }


def expectations(case: GoldenCase) -> list[RouteExpect]:
    """The scopes of a case that set route fields: the case's own, then each turn's."""
    scopes = [RouteExpect.of(case, None)]
    for expect in case.conversation.expect if case.conversation else []:
        scopes.append(RouteExpect.of(expect, expect.turn))
    return [scope for scope in scopes if not scope.empty]


def score_route(path: NodePath, case: GoldenCase) -> Check:
    """The route check of ``path`` against every scope of ``case`` that sets route fields."""
    rows = [check_scope(path, scope) for scope in expectations(case)]
    scores = [sum(r["parts"].values()) / len(r["parts"]) if r["parts"] else 0.0 for r in rows]
    failures = [text for row in rows for text in row["failures"]]
    return Check(
        score=sum(scores) / len(scores) if scores else 1.0,
        passed=not failures,
        details={"scopes": rows, "route": path.route(), "supersteps": path.supersteps},
    )


@golden_check(
    "route", "a LangGraph agent's path: expected route, forbidden nodes, max supersteps", order=100
)
class RouteCheck(GoldenCheck):
    """The graph path against the route fields; only for a result that has a path."""

    component = "route"
    kind = "trajectory"
    fields = ROUTE_FIELDS
    # the conversation too: its turns' route fields (removed with it, as the turns check says)
    weakening: ClassVar[dict[str, Weakening]] = {
        "expected_route": "items",
        "route_match": "single",
        "forbidden_nodes": "items",
        "max_supersteps": "limit",
        "conversation": "single",
    }

    def applies(self, case: Any) -> bool:
        return bool(expectations(case))

    def score(self, data: CheckInput) -> Check | None:
        if data.result is None or data.result.nodes is None or not self.applies(data.case):
            return None
        return score_route(data.result.nodes, data.case)

    def subscores(self, check: Check) -> dict[str, float]:
        """Each part's mean over the scopes that have it."""
        parts: dict[str, list[float]] = {}
        for row in check.details["scopes"]:
            for name, value in row["parts"].items():
                parts.setdefault(name, []).append(value)
        return {name: sum(values) / len(values) for name, values in parts.items()}

    def hard_fails(self, check: Check) -> list[str]:
        """Every missed route, forbidden node run and superstep bound passed."""
        return [text for row in check.details["scopes"] for text in row["failures"]]

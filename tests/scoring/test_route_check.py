"""The route check on hand-made node paths: each match mode with its partial credit, the
sub-graph nodes a route names, forbidden nodes, superstep bounds, the recursion limit, and
per-turn expectations of a conversation."""

from __future__ import annotations

from typing import Any

import pytest

from arena.golden._models import GoldenCase
from arena.records.graph_path import NodePath, NodeStep
from arena.scoring.checks import GOLDEN_CHECKS
from arena.scoring.checks._route import route_score, score_route

CHECK = GOLDEN_CHECKS.lookup("route")  # the registered instance

pytestmark = pytest.mark.unit


def _path(*turns: list[str], limit: bool = False) -> NodePath:
    """A path whose turns ran these full names; each top-level node its own superstep."""
    steps: list[NodeStep] = []
    supersteps = []
    for turn, names in enumerate(turns, start=1):
        top = 0
        for name in names:
            parent, _, node = name.rpartition(":")
            top += not parent
            steps.append(
                NodeStep(
                    index=len(steps), node=node, parent=parent or None, superstep=top, turn=turn
                )
            )
        supersteps.append(top)
    return NodePath(steps=steps, turn_supersteps=supersteps, recursion_limit_hit=limit)


def _case(**fields: Any) -> GoldenCase:
    return GoldenCase.model_validate(
        {"id": "R-1", "input": "q", "category": "happy_path", **fields}
    )


RAN = ["router", "support", "support:agent", "support:tools", "support:agent", "audit"]


@pytest.mark.parametrize(
    ("expected", "mode", "score", "met"),
    [
        (["router", "audit"], "in_order", 1.0, True),
        (["audit", "router"], "in_order", 0.5, False),
        (["router", "support", "audit"], "strict", 1.0, True),
        (["router", "audit"], "strict", 1 / 3, False),
        (["audit", "support", "router"], "unordered", 1.0, True),
        (["router", "audit"], "superset", 1.0, True),
        (["router", "decline"], "superset", 0.5, False),
    ],
)
def test_match_modes_and_partial_credit(
    expected: list[str], mode: str, score: float, met: bool
) -> None:
    assert route_score(["router", "support", "audit"], expected, mode) == (
        pytest.approx(score),
        met,
    )


def test_a_route_naming_a_subgraph_node_is_matched_with_that_subgraphs_nodes() -> None:
    strict = _case(expected_route=RAN, route_match="strict")
    assert score_route(_path(RAN), strict).passed
    top_only = _case(expected_route=["router", "support", "audit"], route_match="strict")
    assert score_route(_path(RAN), top_only).passed  # inner nodes not interleaved


def test_a_missed_route_names_the_route_and_the_mode() -> None:
    case = _case(expected_route=["router", "support"], route_match="strict")
    check = score_route(_path(["router", "decline"]), case)
    assert not check.passed and check.score == pytest.approx(0.5)
    assert CHECK.hard_fails(check) == [
        "route router -> decline, expected router -> support (strict)"
    ]


def test_forbidden_nodes_supersteps_and_the_recursion_limit() -> None:
    case = _case(forbidden_nodes=["support:tools", "decline"], max_supersteps=2)
    check = score_route(_path(RAN, limit=True), case)
    assert CHECK.hard_fails(check) == [
        "forbidden node ran: support:tools",
        "3 supersteps, at most 2 expected",
        "stopped at the recursion limit",
    ]
    assert CHECK.subscores(check) == {"forbidden": 0.5, "supersteps": 0.0}
    assert score_route(_path(RAN), _case(max_supersteps=3)).passed


def test_turn_expectations_are_checked_on_their_own_turn() -> None:
    case = _case(
        conversation={
            "turns": [{"user": "and 4471?"}, {"user": "thanks"}],
            "expect": [
                {"turn": 1, "expected_route": ["router", "decline"]},
                {"turn": 2, "forbidden_nodes": ["support:tools"], "max_supersteps": 1},
                {"turn": 3, "expected_route": ["router"]},
            ],
        }
    )
    assert CHECK.applies(case)
    check = score_route(_path(["router", "decline"], RAN), case)
    assert CHECK.hard_fails(check) == [
        "turn 2: forbidden node ran: support:tools",
        "turn 2: 3 supersteps, at most 1 expected",
        "turn 3: never reached",
    ]


def test_no_path_or_no_route_fields_is_no_check() -> None:
    assert not CHECK.applies(_case(expected_tools=["x"]))
    with pytest.raises(ValueError, match="route_match needs an expected_route"):
        _case(route_match="strict")

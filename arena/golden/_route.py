"""Route expectations on a LangGraph agent's path: the types and texts a case and a
conversation turn share (``expected_route``, ``route_match``, ``forbidden_nodes``,
``max_supersteps``). The route check is :mod:`arena.scoring.checks._route`.

A node is named as the recorded path names it (:class:`arena.records.graph_path.NodeStep`):
``router`` for a node of the factory's graph, ``support:tools`` for the ``tools`` node of the
compiled sub-graph that is the ``support`` node.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

RouteMatch = Literal["strict", "in_order", "unordered", "superset"]
"""How ``expected_route`` is matched: ``in_order`` (default) a subsequence of the route;
``strict`` exactly the route; ``unordered`` the same nodes as often, any order; ``superset``
the route runs at least these nodes (any order, others allowed)."""
ROUTE_MATCHES: tuple[str, ...] = ("strict", "in_order", "unordered", "superset")
DEFAULT_ROUTE_MATCH: RouteMatch = "in_order"
ROUTE_FIELDS: tuple[str, ...] = (
    "expected_route",
    "route_match",
    "forbidden_nodes",
    "max_supersteps",
)
"""The route fields, on a case and on a turn's expectation."""

NODE_NAME_PATTERN = r"^[^:|\s][^|\s]*$"
NodeName = Annotated[str, Field(min_length=1, max_length=200, pattern=NODE_NAME_PATTERN)]

EXPECTED_ROUTE = (
    "Nodes of the agent's LangGraph graph that must run, in this order (a sub-graph's node "
    "as parent:node, e.g. support:tools); matched as route_match says."
)
ROUTE_MATCH = (
    "How expected_route matches the nodes that ran: in_order (default: a subsequence), "
    "strict (exactly), unordered (the same nodes, any order) or superset (at least these)."
)
FORBIDDEN_NODES = "Nodes that must not run (a hard fail)."
MAX_SUPERSTEPS = (
    "The most LangGraph supersteps of the top-level graph the run may take (a hard fail "
    "beyond; a recursion-limit stop always fails)."
)


def route_match_needs_route(route: list[str], match: str | None) -> None:
    """ValueError for a ``route_match`` without an ``expected_route`` to match."""
    if match is not None and not route:
        raise ValueError("route_match needs an expected_route")


def route_not_empty(route: list[str]) -> list[str]:
    """ValueError for an ``expected_route`` given empty (it would expect nothing)."""
    if not route:
        raise ValueError("expected_route is empty: name at least one node, or leave the field out")
    return route


def route_not_forbidden(route: list[str], forbidden: list[str]) -> None:
    """ValueError for a node both in ``expected_route`` and ``forbidden_nodes`` (the case
    could never pass)."""
    both = [name for name in dict.fromkeys(route) if name in set(forbidden)]
    if both:
        raise ValueError(
            f"{', '.join(both)} in both expected_route and forbidden_nodes: the route "
            "can never hold; take it out of one of them"
        )

"""Lint the route fields against the graph: every node a case names must be a node of the
variants' compiled graph (``arena golden lint --variants``; every unknown name of every case
in one error: :func:`arena.golden._route_nodes.check_route_nodes`)."""

from __future__ import annotations

from arena.golden._route_nodes import check_route_nodes

__all__ = ["check_route_nodes"]

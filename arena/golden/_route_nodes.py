"""Route fields against a graph: every node a case names (``expected_route``,
``forbidden_nodes``, ``expected_graph_trajectory``, a turn's) must be a node of the graph
that runs it. A misspelt name is bad input, never a check that silently passes or can never
fire. ``arena golden lint --variants`` and every run of a compiled graph check it."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

from arena.errors import InputError

if TYPE_CHECKING:
    from arena.golden._models import GoldenCase


def unknown_route_nodes(
    cases: Iterable[GoldenCase], known: Collection[str]
) -> list[tuple[str, str, list[str]]]:
    """Each (case id, field, unknown names) of ``cases`` naming nodes not in ``known``."""
    found = []
    for case in cases:
        for field, names in case.node_names():
            unknown = [name for name in dict.fromkeys(names) if name not in known]
            if unknown:
                found.append((case.id, field, unknown))
    return found


def check_route_nodes(
    cases: Iterable[GoldenCase], known: Collection[str], *, file: str | None, graph: str
) -> None:
    """InputError naming the file, and every case and field naming a node that is not in
    ``known`` (the full names of the graph's nodes; ``graph`` says whose graph) with those
    names, and the graph's nodes: all of them in one error."""
    found = unknown_route_nodes(cases, known)
    if not found:
        return
    nodes = f"the graph of {graph} has {', '.join(sorted(known)) or 'no nodes'}"
    if len(found) == 1:
        ((case, field, names),) = found
        raise InputError(
            f"unknown node(s) {', '.join(names)}: {nodes}", file=file, case=case, field=field
        )
    listed = "; ".join(
        f"case {case}, field {field}: {', '.join(names)}" for case, field, names in found
    )
    raise InputError(f"unknown node(s) in {len(found)} fields: {listed}; {nodes}", file=file)

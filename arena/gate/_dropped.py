"""Tools and graph nodes the baseline had and the candidate lost: a regression, not bad input.

A run refuses a case that needs a tool no variant offers, or names a node no variant's graph
has (:mod:`arena.runner._preflight`): a misspelt name is bad input. Against a baseline file
the baseline's variant is not in the run, so the gate tells the run what the baseline had:
the tools of its recorded version (``variant_version.tools``) and the nodes its runs went
through (``graph_nodes``, and the top-level nodes of its recorded routes for a baseline saved
before those were recorded). A case naming one of them runs, and fails for a candidate that
dropped it: the rules report it, and :func:`dropped_notes` says which name the candidate lost.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.errors import ArenaError
from arena.golden import GoldenCase
from arena.golden._route_nodes import unknown_route_nodes
from arena.records.graph_path import ROUTE_ARROW, TURN_SEP, route_parents
from arena.runner import variant_node_names
from arena.runner._preflight import offered_tools, unoffered
from arena.scoring._baseline import Baseline
from arena.storage import Store
from arena.variants.variant import Variant


def baseline_tools(baseline: Baseline | None) -> frozenset[str]:
    """The tools the baseline's recorded version offered (empty when it records none)."""
    version = (baseline.variant_version or {}) if baseline is not None else {}
    return frozenset(version.get("tools") or {})


def _stored_nodes(store: Store, baseline: Baseline) -> set[str]:
    """The nodes the baseline's stored run went through (a baseline saved before
    ``graph_nodes`` were recorded; nothing when the database no longer holds that run)."""
    if baseline.graph_nodes or baseline.source_run_id is None:
        return set()
    try:
        results = store.results(baseline.source_run_id)
    except ArenaError:
        return set()
    own = [r for r in results if r.variant_hash == baseline.variant_hash]
    return {step.name for r in own if r.nodes is not None for step in r.nodes.steps}


def baseline_nodes(baseline: Baseline | None, store: Store | None = None) -> frozenset[str]:
    """The graph nodes the baseline's runs went through, by full name (``store``: where an
    older baseline's run may still be)."""
    if baseline is None:
        return frozenset()
    routed = {
        node
        for record in baseline.cases.values()
        for route in record.routes
        for turn in route.split(TURN_SEP)
        for node in turn.split(ROUTE_ARROW)
        if node
    }
    names = set(baseline.graph_nodes) | routed
    if store is not None:
        names |= _stored_nodes(store, baseline)
    return frozenset(names | route_parents(names))


def _tool_notes(cases: Iterable[GoldenCase], had: frozenset[str], has: set[str]) -> list[str]:
    notes = []
    for case in cases:
        found = unoffered(case, has)
        lost = [t for t in found[1] if t in had] if found else []
        if lost:
            notes.append(
                f"{case.id} expects tool {', '.join(lost)}, which the candidate no longer "
                "offers (the baseline did)"
            )
    return notes


def _node_notes(cases: Iterable[GoldenCase], had: frozenset[str], has: set[str]) -> list[str]:
    notes = []
    for case_id, field, names in unknown_route_nodes(cases, has):
        lost = [n for n in names if n in had]
        if lost:
            notes.append(
                f"{case_id} names node {', '.join(lost)} in {field}, which the candidate's "
                "graph no longer has (the baseline's did)"
            )
    return notes


def dropped_notes(
    cases: list[GoldenCase], baseline: Baseline | None, candidate: Variant, store: Store
) -> list[str]:
    """One line per case needing a tool or naming a node the baseline had and ``candidate``
    lost (``H-3 expects tool escalate, which the candidate no longer offers ...``)."""
    tools, nodes = baseline_tools(baseline), baseline_nodes(baseline, store)
    notes = []
    offered = offered_tools(candidate) if tools else None
    if offered is not None:
        notes += _tool_notes(cases, tools, offered)
    graph = variant_node_names(candidate) if nodes and any(c.node_names() for c in cases) else None
    if graph is not None:
        notes += _node_notes(cases, nodes, graph)
    return notes

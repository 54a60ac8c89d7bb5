"""Route changes: the cases whose path through a LangGraph agent's graph differs between the
baseline and the candidate (``S-1: route changed: router -> support -> audit became router ->
decline``), from each snapshot's recorded routes (:attr:`CaseRecord.routes`)."""

from __future__ import annotations

from collections import Counter

from arena.scoring._baseline import Baseline


def usual_route(routes: list[str]) -> str:
    """The route most repeats took (the first of them on a tie)."""
    counts = Counter(routes)
    return max(routes, key=lambda route: (counts[route], -routes.index(route)))


def route_changes(baseline: Baseline | None, candidate: Baseline) -> list[str]:
    """One line per case both snapshots recorded routes for whose usual route changed."""
    if baseline is None:
        return []
    changes = []
    for case_id, record in candidate.cases.items():
        before = baseline.cases.get(case_id)
        if before is None or not before.routes or not record.routes:
            continue
        old, new = usual_route(before.routes), usual_route(record.routes)
        if old != new:
            changes.append(f"{case_id}: route changed: {old} became {new}")
    return changes

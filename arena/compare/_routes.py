"""Routes in comparisons: the cases whose path through a LangGraph agent's graph differs
between the baseline and the candidate (``S-1: route changed: router -> support -> audit
became router -> decline``, from each snapshot's :attr:`CaseRecord.routes`), and how often
each variant took each branch (``arena compare``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from arena.records.results import RunResult
from arena.scoring._baseline import Baseline


class BranchCount(BaseModel):
    """One route through the top-level graph and how many results of each variant took it."""

    model_config = ConfigDict(extra="forbid")

    route: str = Field(description="The top-level nodes in order: 'router -> decline'.")
    counts: dict[str, int] = Field(description="Variant -> results that took this route.")


def branch_counts(results: Sequence[RunResult], variants: Sequence[str]) -> list[BranchCount]:
    """How often each of ``variants`` took each route, the most taken first (empty when no
    result of theirs has a path: their agents are not graphs)."""
    taken: dict[str, Counter[str]] = {}
    for result in results:
        if result.variant in variants and result.nodes is not None:
            route = result.nodes.route_summary()
            taken.setdefault(route, Counter())[result.variant] += 1
    rows = [
        BranchCount(route=route, counts={v: counts[v] for v in variants})
        for route, counts in taken.items()
    ]
    return sorted(rows, key=lambda row: -sum(row.counts.values()))


def branch_rows(branches: Sequence[BranchCount], variants: Sequence[str]) -> list[list[str]]:
    """The branch counts as table rows: the route, then each variant's count."""
    return [[b.route, *(str(b.counts.get(v, 0)) for v in variants)] for b in branches]


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

"""Lint the route fields against the graph: every node a case names must be a node of the
variants' compiled graph (``arena golden lint --variants``)."""

from __future__ import annotations

from collections.abc import Collection

from arena.errors import InputError
from arena.golden._models import GoldenDataset


def check_route_nodes(
    dataset: GoldenDataset, known: Collection[str], *, file: str | None, graph: str
) -> None:
    """InputError naming the file, the case and the field of the first node name in
    ``expected_route`` or ``forbidden_nodes`` (a case's or a turn's) that is not in ``known``
    (the full names of the graph's nodes; ``graph`` says whose graph, for the message)."""
    for case in dataset.test_cases:
        for field, names in case.node_names():
            unknown = [name for name in names if name not in known]
            if unknown:
                raise InputError(
                    f"unknown node(s) {', '.join(unknown)}: the graph of {graph} has "
                    f"{', '.join(sorted(known)) or 'no nodes'}",
                    file=file,
                    case=case.id,
                    field=field,
                )

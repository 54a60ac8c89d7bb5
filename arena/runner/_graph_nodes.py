"""The node names of a variant's graph, read from the graph its factory builds (no model
call: the model is built lazily, on its first call, which never comes)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.models import CachingChatModel, make_chat_model
from arena.records.graph_path import route_parents
from arena.runner._agents import AgentCache
from arena.runner._graph_path import is_graph

if TYPE_CHECKING:
    from collections.abc import Iterable

    from arena.variants.variant import Variant


def node_names(agent: Any) -> set[str] | None:
    """Every node's full name in a compiled graph (``get_graph(xray=True)``: a compiled
    sub-graph's nodes as ``parent:node``, and the parent itself); None for a plain Runnable."""
    if not is_graph(agent):
        return None
    names = {str(n) for n in agent.get_graph(xray=True).nodes}
    names = {n for n in names if not n.split(":")[-1].startswith("__")}
    return names | route_parents(names)


def variant_node_names(variant: Variant) -> set[str] | None:
    """The node names of the graph ``variant``'s agent is (see :func:`node_names`): the agent
    is built as a run builds it, in a throwaway sandbox, and never invoked."""
    from arena.sandbox import Sandbox

    config = variant.model
    model = CachingChatModel(
        factory=lambda: make_chat_model(config), identity=config.cache_identity()
    )
    agents = AgentCache()
    with tempfile.TemporaryDirectory(prefix="arena-graph-") as folder:
        sandbox = Sandbox.create(Path(folder) / "graph", base=Path(folder))
        try:
            agent = agents.agent(variant, model, agents.tools(variant, model, sandbox), sandbox)
        finally:
            sandbox.release()
    return node_names(agent)


def variants_node_names(variants: Iterable[Variant]) -> tuple[set[str], list[str]]:
    """The node names of every graph among ``variants``' agents (see
    :func:`variant_node_names`), and the names of the variants whose agent is a graph."""
    known: set[str] = set()
    graphs = []
    for variant in variants:
        names = variant_node_names(variant)
        if names is not None:
            known |= names
            graphs.append(variant.name)
    return known, graphs

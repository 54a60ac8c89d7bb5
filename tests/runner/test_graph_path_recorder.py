"""The node-path recorder on small graphs: node order and supersteps, sub-graphs nested two
deep, durations, one turn per invocation, a recursion-limit stop, interrupts; a plain
Runnable gets no recorder; the graph's node names are read for lint."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import GraphRecursionError
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.types import interrupt

from arena.runner import NodePathRecorder, node_names, record_path

pytestmark = pytest.mark.unit


def _chain(*names: str, sleep: float = 0.0) -> Any:
    graph = StateGraph(MessagesState)
    for name in names:

        def node(state: MessagesState) -> dict[str, Any]:
            time.sleep(sleep)
            return {}

        graph.add_node(name, node)
    for a, b in zip((START, *names), (*names, END), strict=False):
        graph.add_edge(a, b)
    return graph.compile()


def _nested() -> Any:
    inner = _chain("tools")
    middle = StateGraph(MessagesState)
    middle.add_node("agent", inner)
    middle.add_edge(START, "agent")
    outer = StateGraph(MessagesState)
    outer.add_node("router", lambda state: {})
    outer.add_node("support", middle.compile())
    outer.add_edge(START, "router")
    outer.add_edge("router", "support")
    return outer.compile()


def _invoke(graph: Any, turns: int = 1, **config: Any) -> NodePathRecorder:
    run: RunnableConfig = {"callbacks": [], **config}  # type: ignore[typeddict-item]
    recorder = record_path(graph, run)
    assert recorder is not None

    async def go() -> None:
        for _ in range(turns):
            await graph.ainvoke({"messages": [("user", "hi")]}, run)

    asyncio.run(go())
    return recorder


def test_nodes_in_order_with_their_parents_supersteps_and_durations() -> None:
    path = _invoke(_chain("a", "b", sleep=0.02)).path()
    assert [(s.name, s.superstep) for s in path.steps] == [("a", 1), ("b", 2)]
    assert all(s.duration_s >= 0.015 for s in path.steps)
    nested = _invoke(_nested()).path()
    assert nested.names() == ["router", "support", "support:agent", "support:agent:tools"]
    assert [s.depth for s in nested.steps] == [0, 0, 1, 2]
    assert nested.turn_supersteps == [2]


def test_each_invocation_is_a_turn() -> None:
    path = _invoke(_chain("a", "b"), turns=2).path()
    assert [s.turn for s in path.steps] == [1, 1, 2, 2] and path.turn_supersteps == [2, 2]
    assert path.supersteps == 4 and path.route(2) == ["a", "b"]


def test_a_recursion_limit_stop_is_recorded() -> None:
    graph = StateGraph(MessagesState)
    graph.add_node("loop", lambda state: {})
    graph.add_edge(START, "loop")
    graph.add_edge("loop", "loop")
    compiled = graph.compile()
    config: RunnableConfig = {"callbacks": [], "recursion_limit": 3}
    recorder = record_path(compiled, config)
    assert recorder is not None
    with pytest.raises(GraphRecursionError):
        asyncio.run(compiled.ainvoke({"messages": []}, config))
    path = recorder.path()
    assert path.recursion_limit_hit and path.route() == ["loop"] * 3


def test_an_interrupt_is_recorded_once_at_the_node_that_raised_it() -> None:
    def ask(state: MessagesState) -> dict[str, Any]:
        interrupt("approve the refund of order 4471?")
        return {}

    inner = StateGraph(MessagesState)
    inner.add_node("ask", ask)
    inner.add_edge(START, "ask")
    outer = StateGraph(MessagesState)
    outer.add_node("review", inner.compile())
    outer.add_edge(START, "review")
    graph = outer.compile(checkpointer=InMemorySaver())
    path = _invoke(graph, configurable={"thread_id": "t-1"}).path()
    assert [(i.node, i.value) for i in path.interrupts] == [
        ("review:ask", "approve the refund of order 4471?")
    ]
    assert path.steps[-1].error == "GraphInterrupt"


def test_a_plain_runnable_gets_no_recorder_and_has_no_node_names() -> None:
    plain = RunnableLambda(lambda x: x)
    config: RunnableConfig = {"callbacks": []}
    assert record_path(plain, config) is None and config["callbacks"] == []
    assert node_names(plain) is None
    assert node_names(_nested()) == {
        "router",
        "support",
        "support:agent",
        "support:agent:tools",
    }

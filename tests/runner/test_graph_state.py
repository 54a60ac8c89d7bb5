"""A LangGraph run's state after each superstep (issue 40, item 3): the run config the arena
gives a graph so its checkpoints can be read back, the bounds on what is kept (steps, keys,
value length, secrets) and what each step changed."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, TypedDict

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableLambda
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.graph import END, START, MessagesState, StateGraph

from arena.records.graph_state import VALUE_LIMIT, GraphStates, StateStep, state_diff
from arena.runner._graph_state import graph_states, prepare_state

pytestmark = pytest.mark.unit


class Notes(MessagesState):
    note: str


def _graph(checkpointer: Any = None) -> Any:
    graph = StateGraph(Notes)
    graph.add_node("first", lambda state: {"note": "seen " + state["messages"][-1].content})
    graph.add_node("second", lambda state: {"messages": [AIMessage("done")]})
    graph.add_edge(START, "first")
    graph.add_edge("first", "second")
    graph.add_edge("second", END)
    return graph.compile(checkpointer=checkpointer)


def _snapshots(graph: Any, message: str) -> list[Any]:
    """Run ``graph`` as the runner readies it; LangGraph's snapshots of the run, newest first."""
    config: dict[str, Any] = {}
    assert prepare_state(graph, config) is not None

    async def run_and_read() -> list[Any]:
        await graph.ainvoke({"messages": [HumanMessage(message)]}, config)
        return [s async for s in graph.aget_state_history({"configurable": config["configurable"]})]

    return asyncio.run(run_and_read())


def _history(graph: Any, message: str) -> GraphStates:
    return graph_states(_snapshots(graph, message))


def test_a_graph_without_a_checkpointer_is_lent_one_and_its_steps_read_back() -> None:
    states = _history(_graph(), "hello")
    assert [(s.step, s.nodes) for s in states.steps] == [
        (-1, []),
        (0, ["__start__"]),
        (1, ["first"]),
        (2, ["second"]),
    ]
    after_first = states.at(1)
    assert after_first is not None and after_first.values["note"] == "seen hello"
    assert after_first.keys == ["messages", "note"]
    assert state_diff(states.before(after_first), after_first) == {"note": ("", "seen hello")}
    last = states.at(2)
    assert last is not None and last.values["messages"] == "human: hello\nai: done"


def test_a_compiled_checkpointer_is_used_with_a_thread_of_its_own() -> None:
    saver = InMemorySaver()
    graph = _graph(saver)
    config: dict[str, Any] = {}
    assert prepare_state(graph, config) is not None
    configurable = config["configurable"]
    assert isinstance(configurable, dict)
    assert CONFIG_KEY_CHECKPOINTER not in configurable  # its own saver, not one lent
    assert str(configurable["thread_id"]).startswith("arena-")
    states = _history(graph, "hi")
    assert [s.step for s in states.steps] == [-1, 0, 1, 2]
    assert list(saver.list(None))  # the run's checkpoints went to the graph's own saver


def test_no_state_for_a_plain_runnable_or_a_graph_refusing_checkpoints() -> None:
    assert prepare_state(RunnableLambda(lambda x: x), {}) is None
    assert prepare_state(_graph(checkpointer=False), {}) is None


def test_values_are_cut_keys_listed_secrets_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-" + "9" * 30
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    step = StateStep(
        step=3,
        nodes=["n"],
        keys=["long", "token"],
        values={"long": "x" * 2000, "token": f"key={secret}"},
    )
    assert len(step.values["long"]) == VALUE_LIMIT and step.values["long"].endswith("...")
    assert secret not in step.values["token"]
    assert "[OPENAI_API_KEY redacted]" in step.values["token"]
    messages = [HumanMessage("q" * 500), AIMessage("the answer")]
    kept = StateStep(step=1, values={"messages": messages}).values["messages"]
    assert kept.startswith("...") and kept.endswith("ai: the answer")  # the newest kept


def test_only_the_last_steps_are_kept() -> None:
    bounded = graph_states(_snapshots(_graph(), "x"), limit=2)
    assert [s.step for s in bounded.steps] == [1, 2] and bounded.dropped == 2


class Held(TypedDict):
    lock: Any
    n: int


def test_a_lent_checkpointer_never_fails_a_state_it_cannot_serialize() -> None:
    graph = StateGraph(Held)
    graph.add_node("hold", lambda state: {"lock": threading.Lock(), "n": state["n"] + 1})
    graph.add_edge(START, "hold")
    graph.add_edge("hold", END)
    compiled = graph.compile()
    config: dict[str, Any] = {}
    assert prepare_state(compiled, config) is not None

    async def run_and_read() -> tuple[Any, list[Any]]:
        out = await compiled.ainvoke({"n": 1}, config)
        history = [s async for s in compiled.aget_state_history(config)]
        return out, history

    out, history = asyncio.run(run_and_read())
    assert out["n"] == 2 and isinstance(out["lock"], type(threading.Lock()))  # ran as without
    held = graph_states(history).at(1)
    assert held is not None and held.values["n"] == "2"
    assert held.values["lock"].startswith("<unlocked _thread.lock")  # kept as its repr


def test_keep_state_0_lends_nothing_but_a_graphs_own_checkpointer_gets_its_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARENA_KEEP_STATE", "0")
    plain: dict[str, Any] = {}
    assert prepare_state(_graph(), plain) is None and "configurable" not in plain
    own: dict[str, Any] = {}
    graph = _graph(InMemorySaver())
    assert prepare_state(graph, own) is None
    assert set(own["configurable"]) == {"thread_id"}
    out = asyncio.run(graph.ainvoke({"messages": [HumanMessage("hi")]}, own))
    assert out["note"] == "seen hi"  # it runs (a checkpointer needs a thread)

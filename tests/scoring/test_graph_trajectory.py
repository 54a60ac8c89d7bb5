"""agentevals compatibility (issue 40, item 4): a result's path exported in agentevals'
graph-trajectory shape is what agentevals itself reads from the thread; an agentevals
reference on a case (``expected_graph_trajectory``) is matched by agentevals' strict rule,
and the arena and ``graph_trajectory_strict_match`` agree on random paths (as does the route
check's ``strict`` mode on a one-turn route)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from agentevals.graph_trajectory.strict import graph_trajectory_strict_match
from agentevals.graph_trajectory.utils import aextract_langgraph_trajectory_from_thread
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph

from arena.golden._models import GoldenCase
from arena.records.graph_path import NodePath
from arena.records.graph_trajectory import agentevals_trajectory, graph_steps
from arena.records.results import RunResult
from arena.runner._graph_path import NodePathRecorder
from arena.scoring import score_result
from arena.scoring.checks._graph_trajectory import score_graph_trajectory
from arena.scoring.checks._route import route_score
from tests.scoring.test_route_check import _path

pytestmark = pytest.mark.unit

TOP = ["router", "support", "decline", "audit"]
INNER = ["support:agent", "support:tools"]


def _result(path: NodePath, output: str = "done") -> RunResult:
    return RunResult(
        variant="v", variant_hash="h", case_id="G-1", case_hash="c", output=output, nodes=path
    )


def _random_turn(rng: random.Random) -> list[str]:
    names: list[str] = []
    for _ in range(rng.randint(1, 4)):
        node = rng.choice(TOP)
        names.append(node)
        if node == "support":
            names.extend(rng.choice(INNER) for _ in range(rng.randint(1, 3)))
    return names


def _random_path(rng: random.Random) -> NodePath:
    return _path(*(_random_turn(rng) for _ in range(rng.randint(1, 3))))


def _reference(rng: random.Random, path: NodePath) -> list[list[str]]:
    """Its own steps, a near miss (one name changed, a turn dropped) or another path's."""
    steps = [list(turn) for turn in graph_steps(path)]
    kind = rng.choice(["same", "renamed", "dropped", "other"])
    if kind == "renamed":
        turn = rng.choice(steps)
        turn[rng.randrange(1, len(turn))] = rng.choice(TOP + INNER)
    elif kind == "dropped" and len(steps) > 1:
        steps.pop(rng.randrange(len(steps)))
    elif kind == "other":
        steps = graph_steps(_random_path(rng))
    return steps


def _agentevals_says(path: NodePath, reference: list[list[str]]) -> bool:
    outputs: Any = agentevals_trajectory(_result(path), "q")
    found = graph_trajectory_strict_match(outputs=outputs, reference_outputs={"steps": reference})
    return bool(found["score"])


def test_the_arena_and_agentevals_strict_match_agree_on_random_paths() -> None:
    rng = random.Random(40)
    verdicts = []
    for _ in range(300):
        path = _random_path(rng)
        reference = _reference(rng, path)
        ours = score_graph_trajectory(path, reference).passed
        assert ours == _agentevals_says(path, reference), (graph_steps(path), reference)
        verdicts.append(ours)
    assert 50 < sum(verdicts) < 250  # both verdicts well represented


def test_the_route_checks_strict_mode_agrees_with_agentevals_on_one_turn_routes() -> None:
    rng = random.Random(4)
    verdicts = []
    for _ in range(300):
        route = [rng.choice(TOP) for _ in range(rng.randint(1, 4))]
        expected = route if rng.random() < 0.4 else [rng.choice(TOP) for _ in route]
        path = _path(route)
        _, ours = route_score(path.route(), expected, "strict")
        assert ours == _agentevals_says(path, [["__start__", *expected]]), (route, expected)
        verdicts.append(ours)
    assert 50 < sum(verdicts) < 250


class _Desk(MessagesState):
    route: str


def _desk(subgraph: bool) -> Any:
    inner = StateGraph(MessagesState)
    inner.add_node("agent", lambda s: {"messages": [AIMessage("looked up")]})
    inner.add_node("tools", lambda s: {})
    inner.add_edge(START, "agent")
    inner.add_edge("agent", "tools")
    inner.add_edge("tools", END)
    graph = StateGraph(_Desk)
    words = lambda s: s["messages"][-1].content  # noqa: E731
    graph.add_node("router", lambda s: {"route": "support" if "order" in words(s) else "decline"})
    graph.add_node("support", inner.compile() if subgraph else (lambda s: {}))
    graph.add_node("decline", lambda s: {"messages": [AIMessage("no")]})
    graph.add_node("audit", lambda s: {})
    graph.add_edge(START, "router")
    graph.add_conditional_edges("router", lambda s: s["route"], ["support", "decline"])
    graph.add_edge("support", "audit")
    graph.add_edge("audit", END)
    graph.add_edge("decline", END)
    return graph.compile(checkpointer=InMemorySaver())


def _both(graph: Any) -> tuple[list[list[str]], list[list[str]]]:
    """The steps the arena exports from its recorded path, and those agentevals reads from
    the thread's checkpoints, for a two-turn thread."""
    recorder = NodePathRecorder()

    async def run() -> Any:
        config: Any = {"configurable": {"thread_id": "t"}, "callbacks": [recorder]}
        await graph.ainvoke({"messages": [HumanMessage("my order")]}, config)
        await graph.ainvoke({"messages": [HumanMessage("a joke")]}, config)
        return await aextract_langgraph_trajectory_from_thread(
            graph, {"configurable": {"thread_id": "t"}}
        )

    theirs = asyncio.run(run())["outputs"]["steps"]
    return graph_steps(recorder.path()), theirs


def test_the_export_is_what_agentevals_reads_from_the_thread() -> None:
    ours, theirs = _both(_desk(subgraph=False))
    assert (
        ours
        == theirs
        == [
            ["__start__", "router", "support", "audit"],
            ["__start__", "router", "decline"],
        ]
    )
    ours, theirs = _both(_desk(subgraph=True))
    # agentevals names a sub-graph's nodes (and its entry) as the arena does; it ends a
    # turn where the sub-graph's checkpoints end, so its first turn stops before `audit`
    assert theirs[0] == ours[0][: len(theirs[0])]
    assert ours[0] == [
        "__start__",
        "router",
        "support",
        "support:__start__",
        "support:agent",
        "support:tools",
        "audit",
    ]


def _case(steps: list[list[str]]) -> GoldenCase:
    return GoldenCase.model_validate(
        {
            "id": "G-1",
            "input": "q",
            "category": "happy_path",
            "expected_graph_trajectory": {"inputs": [{}], "results": [{}], "steps": steps},
        }
    )


def test_a_reference_path_on_a_case_passes_or_fails_naming_the_turn() -> None:
    path = _path(["router", "support", "support:tools", "audit"], ["router", "decline"])
    good = _case([["router", "support", "support:tools", "audit"], ["router", "decline"]])
    score = score_result(_result(path), good)
    assert score.passed and score.components["graph_trajectory"] == 1.0
    bad = _case([["__start__", "router", "support", "audit"], ["router", "decline"]])
    score = score_result(_result(path), bad)
    assert not score.passed
    (reason,) = [r for r in score.fail_reasons if r.check == "graph_trajectory"]
    assert reason.hard and reason.kind == "trajectory"
    assert reason.text == (
        "graph trajectory turn 1: router -> support -> support:tools -> audit, "
        "expected router -> support -> audit"
    )
    assert score.components["graph_trajectory"] == 0.5  # one turn of two
    one_turn = score_result(_result(path), _case([["router", "support", "support:tools"]]))
    texts = [r.text for r in one_turn.fail_reasons if r.check == "graph_trajectory"]
    assert texts == [
        "graph trajectory turn 1: router -> support -> support:tools -> audit, "
        "expected router -> support -> support:tools"
    ]


def test_a_case_without_the_reference_keeps_its_dump() -> None:
    plain = {"id": "P-1", "input": "q", "category": "happy_path"}
    assert "expected_graph_trajectory" not in GoldenCase.model_validate(plain).model_dump()

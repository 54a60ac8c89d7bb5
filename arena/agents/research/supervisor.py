"""Supervisor architecture: decompose, route to Researcher / Analyst / Writer, finish.

Sub-agents are ReAct agents over a subset of the tools; their runs carry the tag
``agent:<name>`` so every tool call in the trajectory says which sub-agent made it.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph

from arena.agents.research.prompts import DECOMPOSE, ROUTE, WORKER_TOOLS, WORKERS
from arena.agents.research.react import build_react_agent

FINISH = "FINISH"
WORKER_ORDER = ("researcher", "analyst", "writer")


class SupervisorState(TypedDict, total=False):
    """The seeds' SupervisorState."""

    messages: Annotated[list[AnyMessage], add_messages]
    original_query: str
    sub_tasks: list[dict[str, str]]
    current_agent: str
    task_for_agent: str
    agent_results: dict[str, str]
    iteration_count: int
    max_iterations: int
    workers_called: Annotated[list[str], operator.add]
    final_report: str | None
    status: str


def _query(state: SupervisorState) -> str:
    if state.get("original_query"):
        return state["original_query"]
    humans = [m for m in state.get("messages", []) if isinstance(m, HumanMessage)]
    return str(humans[0].content) if humans else ""


def _json_payload(text: str) -> Any:
    match = re.search(r"(\[.*\]|\{.*\})", text, re.DOTALL)
    if not match:
        raise ValueError("no JSON found")
    return json.loads(match.group(1))


def default_subtasks(query: str) -> list[dict[str, str]]:
    """The fallback plan when the model's decomposition cannot be read."""
    return [
        {"id": "r1", "description": f"Find facts for: {query}", "assigned_to": "researcher"},
        {"id": "a1", "description": "Analyse the facts found", "assigned_to": "analyst"},
        {"id": "w1", "description": "Write the final answer", "assigned_to": "writer"},
    ]


async def decompose_task(
    state: SupervisorState, model: BaseChatModel, config: RunnableConfig | None = None
) -> dict[str, Any]:
    """Ask the model for sub-tasks; invalid JSON falls back to researcher, analyst, writer."""
    query = _query(state)
    reply = await model.ainvoke([HumanMessage(DECOMPOSE.format(query=query))], config)
    try:
        raw = _json_payload(str(reply.content))
        tasks = [
            {
                "id": str(t.get("id", f"t{i}")),
                "description": str(t["description"]),
                "assigned_to": str(t["assigned_to"]).lower(),
            }
            for i, t in enumerate(raw if isinstance(raw, list) else [raw])
        ]
        tasks = [t for t in tasks if t["assigned_to"] in WORKER_ORDER]
        if not tasks:
            raise ValueError("no usable sub-task")
    except (ValueError, KeyError, TypeError, AttributeError):
        tasks = default_subtasks(query)
    return {
        "original_query": query,
        "sub_tasks": tasks,
        "current_agent": tasks[0]["assigned_to"],
        "task_for_agent": tasks[0]["description"],
        "status": "executing",
        "iteration_count": state.get("iteration_count", 0),
    }


def _fallback_next(state: SupervisorState) -> str:
    called = set(state.get("workers_called", []))
    planned = [t["assigned_to"] for t in state.get("sub_tasks", [])]
    for worker in [*planned, "writer"]:
        if worker not in called:
            return worker
    return FINISH


async def supervisor_route(
    state: SupervisorState, model: BaseChatModel, config: RunnableConfig | None = None
) -> dict[str, Any]:
    """Pick the next worker (or FINISH); the iteration limit forces FINISH."""
    iteration = state.get("iteration_count", 0)
    if iteration >= state.get("max_iterations", 6):
        return {"current_agent": FINISH, "status": "complete", "iteration_count": iteration}
    done = {k: v[:200] for k, v in state.get("agent_results", {}).items()}
    plan = [f"{t['assigned_to']}: {t['description']}" for t in state.get("sub_tasks", [])]
    prompt = ROUTE.format(query=_query(state), done=json.dumps(done), plan="; ".join(plan))
    reply = await model.ainvoke([HumanMessage(prompt)], config)
    try:
        decision = _json_payload(str(reply.content))
        next_agent = str(decision["next_agent"]).strip()
        next_agent = FINISH if next_agent.upper() == FINISH else next_agent.lower()
        task = str(decision.get("task_for_agent", ""))
        if next_agent not in (*WORKER_ORDER, FINISH):
            raise ValueError(next_agent)
    except (ValueError, KeyError, TypeError, AttributeError):
        next_agent, task = _fallback_next(state), ""
    if next_agent == FINISH and "writer" not in state.get("workers_called", []):
        next_agent = "writer" if state.get("agent_results") else next_agent
    status = "complete" if next_agent == FINISH else "executing"
    return {
        "current_agent": next_agent,
        "task_for_agent": task or _query(state),
        "status": status,
        "iteration_count": iteration + 1,
    }


def _tagged(config: RunnableConfig, agent: str) -> RunnableConfig:
    return {**config, "tags": [*config.get("tags", []), f"agent:{agent}"]}


def _worker_node(name: str, model: BaseChatModel, tools: Sequence[BaseTool], max_steps: int) -> Any:
    allowed = set(WORKER_TOOLS[name])
    agent = build_react_agent(
        model, [t for t in tools if t.name in allowed], WORKERS[name], max_steps
    )

    async def run(state: SupervisorState, config: RunnableConfig) -> dict[str, Any]:
        notes = "\n".join(f"{k}: {v}" for k, v in state.get("agent_results", {}).items())
        prompt = f"User request: {_query(state)}\nYour task: {state.get('task_for_agent', '')}"
        if notes:
            prompt += f"\nNotes so far:\n{notes}"
        result = await agent.ainvoke({"messages": [HumanMessage(prompt)]}, _tagged(config, name))
        answer = str(result["messages"][-1].content)
        update: dict[str, Any] = {
            "agent_results": {**state.get("agent_results", {}), name: answer},
            "workers_called": [name],
        }
        if name == "writer":
            update["final_report"] = answer
        return update

    return run


def _finish(state: SupervisorState) -> dict[str, Any]:
    results = state.get("agent_results", {})
    report = state.get("final_report") or next(
        (results[w] for w in reversed(WORKER_ORDER) if w in results), ""
    )
    return {"final_report": report, "status": "complete", "messages": [AIMessage(content=report)]}


def build_supervisor_agent(
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    max_steps: int,
    max_iterations: int,
    role_models: Mapping[str, BaseChatModel] | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The Supervisor -> workers graph with a max-iterations guard.

    ``role_models`` gives some roles (``supervisor``, ``researcher``, ``analyst``,
    ``writer``) their own model; the others use ``model``.
    """
    roles = dict(role_models or {})
    boss = roles.get("supervisor", model)

    async def decompose(state: SupervisorState, config: RunnableConfig) -> dict[str, Any]:
        update = await decompose_task(state, boss, _tagged(config, "supervisor"))
        return {**update, "max_iterations": state.get("max_iterations", max_iterations)}

    async def supervise(state: SupervisorState, config: RunnableConfig) -> dict[str, Any]:
        return await supervisor_route(state, boss, _tagged(config, "supervisor"))

    graph = StateGraph(SupervisorState)
    graph.add_node("decompose", decompose)
    graph.add_node("supervisor", supervise)
    for name in WORKER_ORDER:
        graph.add_node(name, _worker_node(name, roles.get(name, model), tools, max_steps))
        graph.add_edge(name, "supervisor")
    graph.add_node("finish", _finish)
    graph.add_edge(START, "decompose")
    graph.add_conditional_edges(
        "decompose", lambda s: s["current_agent"], {w: w for w in WORKER_ORDER}
    )
    graph.add_conditional_edges(
        "supervisor",
        lambda s: s["current_agent"] if s["current_agent"] != FINISH else "finish",
        {**{w: w for w in WORKER_ORDER}, "finish": "finish"},
    )
    graph.add_edge("finish", END)
    return graph.compile()

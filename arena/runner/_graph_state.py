"""Keep a LangGraph agent's state after each superstep, for a failed case.

:func:`prepare_state` readies a one-message run of a compiled graph for it: the run config
gets a ``thread_id`` of its own and, when the graph was compiled without a checkpointer, an
in-memory one the arena lends through the config (LangGraph's
``configurable.__pregel_checkpointer``, the way a parent lends one to its sub-graphs). A
graph compiled with ``checkpointer=False`` keeps none, and a plain Runnable has no graph.
After the run, :func:`keep_state` reads the thread's checkpoints with
``aget_state_history`` (no model call) when the case failed: it errored, or the case's
deterministic golden checks (no LLM grader) fail it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.types import StateSnapshot

from arena.records.graph_state import KEY_LIMIT, STEP_LIMIT, GraphStates, StateStep
from arena.runner._graph_path import is_graph
from arena.scoring import score_result

if TYPE_CHECKING:
    from arena.golden import GoldenCase
    from arena.records.results import RunResult


@dataclass(frozen=True)
class StateCapture:
    """Where a run's checkpoints are read from: the graph and the config it ran with."""

    agent: Any
    config: RunnableConfig


def prepare_state(agent: object, config: RunnableConfig) -> StateCapture | None:
    """Give ``config`` a thread (and a checkpointer, when the graph has none) so the run's
    state after each superstep can be read back; None when it cannot (not a graph, or a
    graph compiled with ``checkpointer=False``)."""
    if not is_graph(agent) or getattr(agent, "checkpointer", None) is False:
        return None
    configurable = dict(config.get("configurable") or {})
    configurable["thread_id"] = f"arena-{uuid.uuid4().hex}"
    if getattr(agent, "checkpointer", None) is None:
        configurable[CONFIG_KEY_CHECKPOINTER] = InMemorySaver()
    config["configurable"] = configurable
    return StateCapture(agent, config)


def failed(result: RunResult, case: GoldenCase) -> bool:
    """True when the result errored or its case's deterministic golden checks fail it."""
    if result.error is not None:
        return True
    return not score_result(result, case).passed


async def keep_state(capture: StateCapture, result: RunResult, case: GoldenCase) -> None:
    """Set ``result.states`` from the run's checkpoints when the case failed (a checkpointer
    that fails to answer leaves it unset: the result stands without it)."""
    if not failed(result, case):
        return
    config: RunnableConfig = {"configurable": dict(capture.config.get("configurable") or {})}
    try:
        history = [s async for s in capture.agent.aget_state_history(config)]
    except Exception:  # the evidence is optional; the run's result is not
        return
    result.states = graph_states(history)


def graph_states(history: list[StateSnapshot], limit: int = STEP_LIMIT) -> GraphStates:
    """The bounded states of a thread's snapshots (newest first, as LangGraph lists them)."""
    ordered = list(reversed(history))
    steps = [_step(snapshot, ordered[i - 1] if i else None) for i, snapshot in enumerate(ordered)]
    return GraphStates(steps=steps[-limit:], dropped=max(0, len(steps) - limit))


def _step(snapshot: StateSnapshot, previous: StateSnapshot | None) -> StateStep:
    values = snapshot.values if isinstance(snapshot.values, dict) else {"value": snapshot.values}
    metadata = snapshot.metadata or {}
    keys = [str(key) for key in values]
    return StateStep(
        step=int(metadata.get("step", -1)),
        nodes=[] if previous is None else [str(name) for name in previous.next],
        keys=keys,
        values={str(key): values[key] for key in list(values)[:KEY_LIMIT]},
    )

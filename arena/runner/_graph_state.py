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

import os
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.types import StateSnapshot

from arena.records.graph_state import KEY_LIMIT, STEP_LIMIT, GraphStates, StateStep
from arena.runner._graph_path import is_graph
from arena.scoring import score_result

if TYPE_CHECKING:
    from arena.golden import GoldenCase
    from arena.records.results import RunResult


KEEP_STATE_ENV = "ARENA_KEEP_STATE"
"""Set to ``0`` to keep no state (no checkpointer is lent: the graph's runs cost what they
cost without the arena)."""
_TEXT = "arena-text"  # the type tag of a value the lent saver keeps as its repr


class _TextFallback(JsonPlusSerializer):
    """LangGraph's serializer, keeping a value it cannot serialize (a lock, a client) as its
    ``repr``: a lent checkpointer must never fail a run that runs without one. A run reads
    nothing back from it (each invocation and sub-graph starts from an empty thread)."""

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        try:
            return super().dumps_typed(obj)
        except Exception:
            return _TEXT, repr(obj).encode("utf-8", "replace")

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        if data[0] == _TEXT:
            return data[1].decode("utf-8", "replace")
        return super().loads_typed(data)


@dataclass(frozen=True)
class StateCapture:
    """Where a run's checkpoints are read from: the graph and the config it ran with."""

    agent: Any
    config: RunnableConfig


def prepare_state(agent: object, config: RunnableConfig) -> StateCapture | None:
    """Give ``config`` a thread (and a checkpointer, when the graph has none) so the run's
    state after each superstep can be read back; None when it cannot (not a graph, or a
    graph compiled with ``checkpointer=False``) or may not (``$ARENA_KEEP_STATE`` is ``0``:
    a graph with its own checkpointer still gets its thread, nothing is lent)."""
    own = getattr(agent, "checkpointer", None)
    if not is_graph(agent) or own is False:
        return None
    keep = os.environ.get(KEEP_STATE_ENV, "1") != "0"
    if own is None and not keep:
        return None
    configurable = dict(config.get("configurable") or {})
    configurable["thread_id"] = f"arena-{uuid.uuid4().hex}"
    if own is None:
        configurable[CONFIG_KEY_CHECKPOINTER] = InMemorySaver(serde=_TextFallback())
    config["configurable"] = configurable
    return StateCapture(agent, config) if keep else None


def failed(result: RunResult, case: GoldenCase) -> bool:
    """True when the result errored or its case's deterministic golden checks fail it."""
    if result.error is not None:
        return True
    return not score_result(result, case).passed


async def keep_state(capture: StateCapture, result: RunResult, case: GoldenCase) -> None:
    """Set ``result.states`` from the run's checkpoints when the case failed (a checkpointer
    that fails to answer leaves it unset: the result stands without it)."""
    try:
        if not failed(result, case):
            return
    except Exception:  # a case the scorer cannot read: scoring will say so, not the runner
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

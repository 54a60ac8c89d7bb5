"""Record a LangGraph agent's path through its graph from the callbacks it already sends.

LangGraph starts every node's run as a chain run named after the node, tagged
``graph:step:N`` and carrying ``langgraph_node``, ``langgraph_step`` and
``langgraph_checkpoint_ns`` in its metadata; the namespace is ``outer:<task>|inner:<task>``
for a node of a compiled sub-graph, so its parents are the names of the segments before its
own. :class:`NodePathRecorder` keeps those runs (and only those: the chains inside a node
carry the same metadata but not the tag) with their start and end times: no extra model
call, no change to how the agent is invoked. Each root run (one ``ainvoke`` of the graph) is
one turn; a ``GraphRecursionError`` marks the recursion limit hit, a ``GraphInterrupt`` the
node's interrupts.

:func:`record_path` adds a recorder to a run's config when the agent is a compiled graph (a
``Pregel``); for any other Runnable it adds nothing and the result has no path.
"""

from __future__ import annotations

import time
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphInterrupt, GraphRecursionError
from langgraph.pregel import Pregel

from arena.records.graph_path import NODE_SEP, NodeInterrupt, NodePath, NodeStep

_NS_SEP = "|"  # LangGraph's separator of checkpoint namespace segments


def _parent(namespace: str) -> str | None:
    """The enclosing nodes of a node run, from its checkpoint namespace."""
    segments = namespace.split(_NS_SEP)[:-1]
    names = [segment.split(NODE_SEP, 1)[0] for segment in segments]
    return NODE_SEP.join(names) if names else None


def _node_run(tags: list[str] | None, metadata: dict[str, Any] | None, name: Any) -> bool:
    meta = metadata or {}
    node, step = meta.get("langgraph_node"), meta.get("langgraph_step")
    return node is not None and name == node and f"graph:step:{step}" in (tags or [])


class NodePathRecorder(BaseCallbackHandler):
    """Collects the node runs of one agent run (every turn of a dialogue) as a NodePath.

    Like the trajectory recorder its handlers only append and count, so they run inline;
    model, tool, retriever and custom events are not sent to it.
    """

    run_inline = True
    ignore_llm = True
    ignore_chat_model = True
    ignore_agent = True
    ignore_retriever = True
    ignore_custom_event = True

    def __init__(self) -> None:
        self.steps: list[NodeStep] = []
        self.turn_supersteps: list[int] = []
        self.recursion_limit_hit = False
        self.interrupts: list[NodeInterrupt] = []
        self._open: dict[UUID, tuple[NodeStep, float]] = {}
        self._root: UUID | None = None
        self._turn_steps: set[int] = set()
        self._interrupt_ids: set[str] = set()

    @property
    def turn(self) -> int:
        """The current turn, 1-based (turns started so far)."""
        return max(1, len(self.turn_supersteps) + (self._root is not None))

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if parent_run_id is None:
            self._end_turn()
            self._root = run_id
            return
        if not _node_run(tags, metadata, kwargs.get("name")):
            return
        meta = metadata or {}
        parent = _parent(str(meta.get("langgraph_checkpoint_ns", "")))
        step = NodeStep(
            index=len(self.steps),
            node=str(meta["langgraph_node"]),
            parent=parent,
            superstep=int(meta["langgraph_step"]),
            turn=self.turn,
        )
        self.steps.append(step)
        if parent is None:
            self._turn_steps.add(step.superstep)
        self._open[run_id] = (step, time.perf_counter())

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._close(run_id)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        if isinstance(error, GraphRecursionError):
            self.recursion_limit_hit = True
        step = self._close(run_id)
        if step is None:
            return
        step.error = type(error).__name__
        if isinstance(error, GraphInterrupt):
            self._interrupted(step, error)

    def _interrupted(self, step: NodeStep, error: GraphInterrupt) -> None:
        """Each interrupt once, at the innermost node that raised it."""
        for interrupt in error.args[0] if error.args else ():
            key = str(getattr(interrupt, "id", "") or id(interrupt))
            if key in self._interrupt_ids:
                continue
            self._interrupt_ids.add(key)
            value = getattr(interrupt, "value", interrupt)
            self.interrupts.append(NodeInterrupt(node=step.name, turn=step.turn, value=str(value)))

    def _close(self, run_id: UUID) -> NodeStep | None:
        if run_id == self._root:
            self._end_turn()
            return None
        opened = self._open.pop(run_id, None)
        if opened is None:
            return None
        step, started = opened
        step.duration_s = round(time.perf_counter() - started, 6)
        return step

    def _end_turn(self) -> None:
        if self._root is not None:
            self.turn_supersteps.append(len(self._turn_steps))
            self._root, self._turn_steps = None, set()

    def path(self) -> NodePath:
        """What was recorded (a turn still open, e.g. cut by a timeout, is closed)."""
        self._end_turn()
        return NodePath(
            steps=list(self.steps),
            turn_supersteps=list(self.turn_supersteps),
            recursion_limit_hit=self.recursion_limit_hit,
            interrupts=list(self.interrupts),
        )


def is_graph(agent: object) -> bool:
    """True for a compiled LangGraph graph (whose node path can be recorded)."""
    return isinstance(agent, Pregel)


def record_path(agent: object, config: RunnableConfig) -> NodePathRecorder | None:
    """Add a node-path recorder to ``config``'s callbacks when ``agent`` is a compiled graph;
    the recorder, or None (a plain Runnable: nothing is recorded)."""
    if not is_graph(agent):
        return None
    recorder = NodePathRecorder()
    callbacks = config.get("callbacks")
    config["callbacks"] = [*(callbacks if isinstance(callbacks, list) else []), recorder]
    return recorder

"""A LangGraph run's path through its graph: the nodes that ran, in order, as evidence.

Recorded by the runner for an agent that is a compiled LangGraph graph (nothing for a plain
Runnable). Each :class:`NodeStep` is one node execution: its name, the sub-graph it ran in
(``parent``: the enclosing nodes, outermost first, joined by ``:``), its superstep within its
own graph, the conversation turn it belongs to and how long it took. A node's full name
(``NodeStep.name``) is ``parent:node``, e.g. ``support:tools`` for the ``tools`` node of the
compiled sub-graph that is the ``support`` node; golden route checks and reports use it.

A route is a list of such names; :meth:`NodePath.route` gives a run's (or one turn's) route
at the depth a check asks for, :func:`route_text` writes it ``router -> support -> audit``.
"""

from __future__ import annotations

from collections.abc import Collection

from pydantic import BaseModel, ConfigDict, Field, field_validator

from arena.secrets import redact

ROUTE_ARROW = " -> "
"""How the nodes of a route are joined in reasons and reports."""
TURN_SEP = " | "
"""How the routes of a dialogue's turns are joined in comparisons."""
NODE_SEP = ":"
"""How a sub-graph's node is written under its parent (``support:tools``)."""
INTERRUPT_VALUE_LIMIT = 500


def _short(value: str) -> str:
    return redact(value)[:INTERRUPT_VALUE_LIMIT]


class NodeStep(BaseModel):
    """One node execution of a LangGraph run, in the order the nodes started."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=0, description="Position in the run's path, 0-based.")
    node: str = Field(description="The node's name in its own graph.")
    parent: str | None = Field(
        None,
        description="The sub-graph it ran in: the enclosing nodes, outermost first, joined "
        "by ':' (None for a node of the factory's graph itself).",
    )
    superstep: int = Field(description="LangGraph's step number of the node in its own graph.")
    turn: int = Field(1, ge=1, description="The conversation turn (1 for a one-message case).")
    duration_s: float = Field(0.0, ge=0, description="Seconds from the node's start to its end.")
    error: str | None = Field(
        None, description="The exception's type name when the node raised (or interrupted)."
    )

    @property
    def name(self) -> str:
        """The node's full name: ``parent:node`` (``node`` at the top level)."""
        return self.node if self.parent is None else f"{self.parent}{NODE_SEP}{self.node}"

    @property
    def depth(self) -> int:
        """0 for a node of the top-level graph, 1 inside a sub-graph, and so on."""
        return 0 if self.parent is None else self.parent.count(NODE_SEP) + 1


class NodeInterrupt(BaseModel):
    """A ``langgraph.types.interrupt`` raised by a node (its value redacted and cut)."""

    model_config = ConfigDict(extra="forbid")

    node: str = Field(description="The full name of the node that interrupted.")
    turn: int = Field(1, ge=1)
    value: str = Field("", description="The interrupt's value, as text.")

    _no_secrets = field_validator("value")(_short)


class NodePath(BaseModel):
    """Every node a LangGraph run executed, its supersteps, recursion limit and interrupts."""

    model_config = ConfigDict(extra="forbid")

    steps: list[NodeStep] = Field(default_factory=list)
    turn_supersteps: list[int] = Field(
        default_factory=list,
        description="Per agent turn (one for a one-message case), the supersteps in which the "
        "top-level graph ran a node.",
    )
    recursion_limit_hit: bool = Field(
        False, description="True when a turn stopped at LangGraph's recursion limit."
    )
    interrupts: list[NodeInterrupt] = Field(default_factory=list)

    @property
    def supersteps(self) -> int:
        """The run's supersteps, summed over its turns."""
        return sum(self.turn_supersteps)

    def of_turn(self, turn: int) -> list[NodeStep]:
        """The steps of one conversation turn (1-based)."""
        return [step for step in self.steps if step.turn == turn]

    def route(self, turn: int | None = None, within: Collection[str] = ()) -> list[str]:
        """The full names of the nodes that ran, in order (of one ``turn``, or all).

        Top-level nodes always; a sub-graph's nodes only when the sub-graph is named in
        ``within`` (its full name, e.g. ``support``), so a route of the top-level graph is
        not interleaved with the inner nodes no check asked about.
        """
        steps = self.steps if turn is None else self.of_turn(turn)
        return [s.name for s in steps if s.parent is None or s.parent in within]

    def route_summary(self) -> str:
        """The top-level route in words, turn by turn: ``router -> support -> audit`` (a
        dialogue's turns joined by `` | ``), for comparisons across runs."""
        turns = max(len(self.turn_supersteps), 1)
        if turns == 1:
            return route_text(self.route())
        return TURN_SEP.join(route_text(self.route(turn)) for turn in range(1, turns + 1))

    def names(self) -> list[str]:
        """Every node's full name, in order, at every depth."""
        return [step.name for step in self.steps]


def route_text(route: list[str]) -> str:
    """A route in words: ``router -> support -> audit`` (``(no nodes)`` when empty)."""
    return ROUTE_ARROW.join(route) if route else "(no nodes)"


def route_parents(route: Collection[str]) -> set[str]:
    """The sub-graphs a route's names point into: every proper prefix of each name
    (``a:b:c`` gives ``a`` and ``a:b``)."""
    parents: set[str] = set()
    for name in route:
        parts = name.split(NODE_SEP)
        parents.update(NODE_SEP.join(parts[:i]) for i in range(1, len(parts)))
    return parents

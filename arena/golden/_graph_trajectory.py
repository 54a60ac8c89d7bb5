"""An agentevals-style reference path on a golden case: ``expected_graph_trajectory``.

agentevals writes a LangGraph thread's path as ``{"inputs", "results", "steps"}``, ``steps``
holding per agent turn the node names that ran (``__start__`` first, a sub-graph's node as
``parent:node``). A case may set such a reference output as is (``inputs`` and ``results``
are accepted and not compared): the run's path must match ``steps`` strictly, agentevals'
``graph_trajectory_strict_match`` rule (as many turns, each turn's names equal, in order).
The ``__start__`` entries (``__start__``, ``parent:__start__``) may be left out of the
reference: they are dropped from both sides before comparing, since every turn has them.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from arena.golden._route import NodeName

EXPECTED_GRAPH_TRAJECTORY = (
    'An agentevals graph-trajectory reference ({"steps": [[node, ...], ...]}, one list '
    "per agent turn; inputs and results are ignored): the run's path must match it exactly "
    "(agentevals' graph_trajectory_strict_match; __start__ entries optional)."
)
START_SUFFIX = "__start__"


class GraphTrajectoryRef(BaseModel):
    """The ``steps`` of an agentevals graph trajectory, per agent turn."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    steps: Annotated[list[list[NodeName]], Field(min_length=1)] = Field(
        description="Per agent turn, the node names that ran, in order."
    )
    inputs: list[Any] | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="agentevals' per-turn inputs: accepted as pasted, not compared.",
    )
    results: list[Any] | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="agentevals' per-turn results: accepted as pasted, not compared.",
    )

    def node_names(self) -> list[str]:
        """Every node the reference names (no ``__start__`` or ``__interrupt__``)."""
        names = [n for turn in self.steps for n in turn if not _marker(n)]
        return list(dict.fromkeys(names))


def _marker(name: str) -> bool:
    return name.split(":")[-1] in (START_SUFFIX, "__interrupt__")


def without_start(steps: list[list[str]]) -> list[list[str]]:
    """``steps`` without their ``__start__`` entries (``parent:__start__`` included)."""
    return [[n for n in turn if n.split(":")[-1] != START_SUFFIX] for turn in steps]

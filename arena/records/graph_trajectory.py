"""A result's path in agentevals' graph-trajectory shape, and its strict match.

agentevals (``agentevals.graph_trajectory``) reads a LangGraph thread into
``{"inputs": [...], "results": [...], "steps": [[...], ...]}``: per agent turn, the turn's
input, its result and the names of the nodes that ran, each turn's list opening with
``__start__`` and a sub-graph's node written ``parent:node``
(``extract_langgraph_trajectory_from_thread``). :func:`agentevals_trajectory` writes a
stored result's :class:`~arena.records.graph_path.NodePath` that way, so
``graph_trajectory_strict_match`` and agentevals' LLM judge of a graph trajectory read it as
they read a thread. :func:`strict_steps_match` is agentevals' strict rule (the same number of
turns, each turn's names equal, in order); a golden case's ``expected_graph_trajectory``
(``{"steps": [[...], ...]}``, an agentevals reference output) is checked with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena.records.graph_path import NodePath

if TYPE_CHECKING:
    from arena.records.results import RunResult

START = "__start__"
"""agentevals' first name of every turn (LangGraph's input task)."""
INTERRUPT = "__interrupt__"
"""agentevals' name for a node's interrupt, before the node's own name."""


def graph_steps(path: NodePath) -> list[list[str]]:
    """Per turn, the node names agentevals lists: ``__start__``, then every node that ran
    (a sub-graph's as ``parent:node``, its entry as ``parent:__start__``), and
    ``__interrupt__`` before a node that interrupted."""
    turns = max(len(path.turn_supersteps), 1)
    steps: list[list[str]] = []
    for turn in range(1, turns + 1):
        names = [START]
        interrupted = {i.node for i in path.interrupts if i.turn == turn}
        for step in path.of_turn(turn):
            if step.parent is not None and names[-1] == step.parent:
                names.append(f"{step.parent}:{START}")
            if step.name in interrupted and step.error == "GraphInterrupt":
                names.append(INTERRUPT)
            names.append(step.name)
        steps.append(names)
    return steps


def agentevals_trajectory(result: RunResult, case_input: str = "") -> dict[str, Any]:
    """The result's path as agentevals' graph trajectory.

    Args:
        result: a stored or fresh result whose agent was a compiled LangGraph graph.
        case_input: the golden case's ``input`` (a one-message case; a dialogue's user
            turns come from its record).

    Returns:
        ``{"inputs", "results", "steps"}`` as ``extract_langgraph_trajectory_from_thread``
        gives them: per agent turn its input, its answer and its node names.

    Raises:
        ValueError: the result has no path (its agent is not a compiled graph).
    """
    if result.nodes is None:
        raise ValueError(f"result {result.id} has no graph path (its agent is not a graph)")
    steps = graph_steps(result.nodes)
    turns = result.dialogue.turns if result.dialogue is not None else []
    inputs = [t.user for t in turns] if turns else [case_input]
    outputs = [t.reply for t in turns] if turns else [result.output]
    return {
        "inputs": [
            {START: {"messages": [{"role": "user", "content": text}]}}
            for text in inputs[: len(steps)]
        ],
        "results": [
            {"messages": [{"role": "assistant", "content": text}]} for text in outputs[: len(steps)]
        ],
        "steps": steps,
    }


def strict_steps_match(steps: Sequence[Sequence[str]], reference: Sequence[Sequence[str]]) -> bool:
    """agentevals' ``graph_trajectory_strict_match``: as many turns, each turn's node names
    equal to the reference's, in order."""
    return len(steps) == len(reference) and all(
        list(mine) == list(theirs) for mine, theirs in zip(steps, reference, strict=True)
    )

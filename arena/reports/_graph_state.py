"""A failed LangGraph run's state after each superstep, as text and JSON (``arena show
RESULT --state [STEP]``): every kept step with the nodes that wrote it, its keys and what it
changed, or one step in full."""

from __future__ import annotations

from typing import Any

from arena.errors import InputError
from arena.records.graph_state import GraphStates, StateStep, state_diff
from arena.reports._format import terminal_safe


def no_states(result_id: int | None) -> InputError:
    """The error for a result whose states were not kept."""
    return InputError(
        f"result {result_id} has no saved state: states are kept for failed cases of a "
        "LangGraph agent whose graph has or accepts a checkpointer"
    )


def pick_step(states: GraphStates, step: int | None, result_id: int | None) -> list[StateStep]:
    """Every kept step (``step`` None) or the one asked for; InputError naming the kept
    range when that superstep was not kept."""
    if step is None:
        return list(states.steps)
    found = states.at(step)
    if found is None:
        kept = [s.step for s in states.steps]
        span = f"{kept[0]}..{kept[-1]}" if kept else "none"
        raise InputError(f"result {result_id} has no state after superstep {step} (kept: {span})")
    return [found]


def state_json(states: GraphStates, steps: list[StateStep]) -> dict[str, Any]:
    """The steps as JSON: each with its nodes, keys, values and ``changed`` (key -> [old,
    new])."""
    return {
        "dropped": states.dropped,
        "steps": [
            {
                **step.model_dump(mode="json"),
                "changed": {k: list(v) for k, v in state_diff(states.before(step), step).items()},
            }
            for step in steps
        ],
    }


def _indent(text: str, prefix: str = "        ") -> str:
    return "\n".join(prefix + line for line in terminal_safe(text).splitlines() or [""])


def state_lines(states: GraphStates, steps: list[StateStep], *, full: bool) -> list[str]:
    """Text: per step its superstep, nodes and keys, then what it changed (``full``: every
    value, for one step)."""
    lines = []
    if states.dropped:
        lines.append(f"({states.dropped} earlier superstep(s) not kept)")
    for step in steps:
        nodes = ", ".join(step.nodes) or "(input)"
        lines.append(f"superstep {step.step}  after {terminal_safe(nodes)}")
        lines.append(f"    keys: {terminal_safe(', '.join(step.keys))}")
        shown = (
            {k: ("", v) for k, v in step.values.items()}
            if full
            else state_diff(states.before(step), step)
        )
        for key, (_, new) in shown.items():
            lines.append(f"    {terminal_safe(key)}:")
            lines.append(_indent(new))
    return lines

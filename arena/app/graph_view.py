"""A LangGraph result's path in the drill-down: a timeline of the nodes that ran (turn,
superstep, node, the sub-graph it ran in, duration) and, for a failed case whose state was
kept, what each superstep changed in the graph's state.

Node names and state values are the agent's (model-written values included): shown in
tables and code blocks only, never as markdown.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from arena.app.data import TTL, get_store
from arena.app.text import md
from arena.records.graph_state import state_diff
from arena.records.results import RunResult


def graph_view(result: RunResult) -> dict[str, Any] | None:
    """The result's path (and states) as plain data for the page; None for a result
    without a path (its agent is not a compiled graph)."""
    path = result.nodes
    if path is None:
        return None
    timeline = [
        {
            "Turn": step.turn,
            "Superstep": step.superstep,
            "Node": step.name,
            "Sub-graph": step.parent or "",
            "Duration (s)": round(step.duration_s, 3),
            "Error": step.error or "",
        }
        for step in path.steps
    ]
    states = result.states
    changes = (
        []
        if states is None
        else [
            {
                "step": step.step,
                "nodes": step.nodes,
                "changed": state_diff(states.before(step), step),
            }
            for step in states.steps
        ]
    )
    return {
        "timeline": timeline,
        "supersteps": path.supersteps,
        "recursion_limit_hit": path.recursion_limit_hit,
        "interrupts": [(i.node, i.value) for i in path.interrupts],
        "states": changes,
        "dropped": states.dropped if states is not None else 0,
    }


@st.cache_data(ttl=TTL, show_spinner=False)
def load_graph(url: str, result_id: int) -> dict[str, Any] | None:
    """:func:`graph_view` of a stored result (with its states)."""
    return graph_view(get_store(url).result(result_id))


def render_graph(view: dict[str, Any], name: str) -> None:
    """The timeline as a table, then each superstep's state changes (when kept)."""
    nodes = len(view["timeline"])
    label = f"Graph path of {md(name)}: {nodes} node(s), {view['supersteps']} superstep(s)"
    with st.expander(label):
        if view["recursion_limit_hit"]:
            st.error("The run stopped at LangGraph's recursion limit.")
        st.dataframe(pd.DataFrame(view["timeline"]), hide_index=True)
        for node, value in view["interrupts"]:
            st.caption(f"interrupt at {md(node)}")
            st.code(value or "(no value)", language=None, wrap_lines=True)
        if not view["states"]:
            return
        st.markdown("**State after each superstep** (what it changed)")
        if view["dropped"]:
            st.caption(f"{view['dropped']} earlier superstep(s) not kept")
        for step in view["states"]:
            after = ", ".join(step["nodes"]) or "the input"
            st.caption(f"superstep {step['step']} · after {md(after)}")
            for key, (old, new) in step["changed"].items():
                st.code(f"{key}:\n- {old or '(unset)'}\n+ {new}", language=None, wrap_lines=True)


def graph_path(url: str, result_id: int, name: str) -> None:
    """The drill-down's graph path of one stored result (nothing for a plain Runnable)."""
    view = load_graph(url, result_id)
    if view is not None:
        render_graph(view, name)

"""What a run changed in the state its agent exposes, in the drill-down: one row per changed
field (record, field, before, after), a record added or removed on a row of its own.

Record paths and values are the agent's (model-written values included): shown in a table,
never as markdown. The diff is stored bounded and redacted
(:class:`arena.records.end_state.StateDiff`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from arena.app.data import TTL, get_store
from arena.app.text import md
from arena.records.end_state import value_text
from arena.records.results import RunResult


def _cell(value: Any, present: bool) -> str:
    return value_text(value) if present else "(absent)"


def state_view(result: RunResult) -> dict[str, Any] | None:
    """The result's state changes as plain data for the page; None when its agent exposes
    no state."""
    diff = result.end_state
    if diff is None:
        return None
    rows = []
    for change in diff.changes:
        if change.change != "changed":
            fields = change.after if change.change == "added" else change.before
            rows.append(
                {
                    "Record": change.record,
                    "Field": f"(record {change.change})",
                    "Before": "" if change.change == "added" else value_text(fields),
                    "After": value_text(fields) if change.change == "added" else "",
                }
            )
            continue
        for name, old, new, had, has in change.field_changes():
            rows.append(
                {
                    "Record": change.record,
                    "Field": name,
                    "Before": _cell(old, had),
                    "After": _cell(new, has),
                }
            )
    return {"rows": rows, "dropped": diff.dropped, "error": diff.error}


@st.cache_data(ttl=TTL, show_spinner=False)
def load_state(url: str, result_id: int) -> dict[str, Any] | None:
    """:func:`state_view` of a stored result."""
    return state_view(get_store(url).result(result_id))


def render_state(view: dict[str, Any], name: str) -> None:
    """The changes as a table (or why the state is not known)."""
    records = len({row["Record"] for row in view["rows"]}) + view["dropped"]
    with st.expander(f"End state of {md(name)}: {records} record(s) changed"):
        if view["error"]:
            st.error("The state is not known:")
            st.code(view["error"], language=None, wrap_lines=True)
        if not view["rows"] and not view["error"]:
            st.caption("The run changed no record.")
        if view["rows"]:
            st.dataframe(pd.DataFrame(view["rows"]), hide_index=True)
        if view["dropped"]:
            st.caption(f"{view['dropped']} more changed record(s) not stored")


def end_state(url: str, result_id: int, name: str) -> None:
    """The drill-down's state changes of one stored result (nothing when its agent exposes
    no state)."""
    view = load_state(url, result_id)
    if view is not None:
        render_state(view, name)

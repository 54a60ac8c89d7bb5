"""A conversation result in the drill-down, turn by turn: the user's message, the agent's
tool calls with their observations, its reply.

Every message, argument and observation is model-written (the user too, when simulated):
shown in code blocks only, never as markdown, like the rest of the compare view.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from arena.app.data import TTL, get_store
from arena.app.text import md
from arena.records.results import RunResult
from arena.records.transcript import turn_steps


def dialogue_view(result: RunResult) -> dict[str, Any] | None:
    """The result's dialogue as plain data for the page (None for a one-message result):
    how it ended, the simulator error, and per turn the user, the reply and the tool calls."""
    dialogue = result.dialogue
    if dialogue is None:
        return None
    return {
        "ended_by": dialogue.ended_by,
        "user_model": dialogue.user_model,
        "simulator_error": dialogue.simulator_error,
        "error": result.error_headline,
        "turns": [
            {
                "index": turn.index,
                "user": turn.user,
                "reply": turn.reply,
                "model_calls": turn.model_calls,
                "latency_s": turn.latency_s,
                "steps": [step.model_dump(mode="json") for step in turn_steps(result, turn)],
            }
            for turn in dialogue.turns
        ],
    }


@st.cache_data(ttl=TTL, show_spinner=False)
def load_dialogue(url: str, result_id: int) -> dict[str, Any] | None:
    """:func:`dialogue_view` of a stored result."""
    return dialogue_view(get_store(url).result(result_id))


def _tool_call(step: dict[str, Any]) -> None:
    st.caption(f"tool {md(step['tool'])} ({md(step['agent'])})")
    st.code(json.dumps(step["args"], indent=2, ensure_ascii=False), language="json")
    st.code(step["observation"] or "(empty)", language=None, wrap_lines=True)
    if step["error"]:
        st.caption("error")
        st.code(step["error"], language=None, wrap_lines=True)


def render_dialogue(view: dict[str, Any], name: str, *, tools: bool = True) -> None:
    """The dialogue turn by turn, one chat message per speaker (each turn's tool calls with
    their observations when ``tools``)."""
    turns = view["turns"]
    ended = f"ended by {view['ended_by']}"
    if view["user_model"]:
        ended += f"; the user played by {view['user_model']}"
    st.caption(f"Conversation of {md(name)}: {len(turns)} turn(s), {md(ended)}")
    if view["simulator_error"]:
        st.warning(
            "The simulated user failed (not the agent's fault; this result is neither "
            f"judged nor scored): {md(view['simulator_error'])}"
        )
    for turn in turns:
        with st.chat_message("user"):
            st.caption(f"turn {turn['index']}")
            st.code(turn["user"] or "(empty)", language=None, wrap_lines=True)
        with st.chat_message("assistant"):
            st.caption(
                f"turn {turn['index']} · {len(turn['steps'])} tool call(s) · "
                f"{turn['model_calls']} model call(s) · {turn['latency_s']:.1f} s"
            )
            for step in turn["steps"] if tools else []:
                _tool_call(step)
            st.code(turn["reply"] or "(no reply)", language=None, wrap_lines=True)
    if view["error"]:
        st.error(f"The agent failed: {md(view['error'])}")

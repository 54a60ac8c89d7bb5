"""The Vote tab: people judge blind pairs of answers; each vote is a ``human:NAME`` battle.

A random pair of answers to the same case is shown without the variants' names, in a random
order; four buttons record the vote, then the names are revealed. Answers, queries and
trajectories come from models and users: they are shown in code blocks only (text, never
HTML). The votes are read back by the leaderboard (the judge selector offers each voter) and
the Judge health tab (model judges' agreement with the humans).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from arena.app import data
from arena.app.text import error_text, md
from arena.app.views import Context
from arena.battles import VOTE_CHOICES, VotePair, cast_vote, next_pair, vote_counts
from arena.errors import InputError

PAIR = "vote_pair"
LAST = "vote_last"


def _slot(ctx: Context) -> str:
    """Session key of the pair on screen: one per run and voter."""
    return f"{PAIR}:{ctx.run_id}:{ctx.voter}"


def _current(ctx: Context) -> VotePair | None:
    """The pair on screen, or a new random one this person has not voted on."""
    slot = _slot(ctx)
    if slot not in st.session_state:
        pair = next_pair(data.get_store(ctx.url), ctx.run_id, ctx.voter)
        st.session_state[slot] = None if pair is None else pair.model_dump()
    raw = st.session_state[slot]
    return None if raw is None else VotePair.model_validate(raw)


def _vote(ctx: Context, pair: VotePair, winner: str) -> None:
    """Button callback: store the vote, reveal the names, move on to another pair."""
    try:
        cast_vote(data.get_store(ctx.url), pair, ctx.voter, winner)
    except InputError as exc:
        st.session_state[LAST] = {"error": error_text(exc)}
    else:
        st.session_state[LAST] = {
            "winner": winner,
            "a": pair.variant_a,
            "b": pair.variant_b,
            "case": pair.case_id,
        }
    st.session_state.pop(_slot(ctx), None)
    data.clear_caches()  # the leaderboard and judge health pick the vote up at once


def _revealed() -> None:
    last: dict[str, Any] | None = st.session_state.get(LAST)
    if not last:
        return
    if "error" in last:
        st.warning(f"Your vote was not stored: {md(last['error'])}")
        return
    said = VOTE_CHOICES.get(last["winner"], last["winner"])
    st.success(
        f"Vote stored ({md(said)}) on case {md(last['case'])}: A was "
        f"**{md(last['a'])}**, B was **{md(last['b'])}**."
    )


def _answer(column: Any, title: str, answer: str, trajectory: str, show: bool) -> None:
    with column:
        st.markdown(f"**{title}**")
        st.code(answer or "(empty answer)", language=None, wrap_lines=True)
        if show:
            st.caption("Tool calls")
            st.code(trajectory, language=None, wrap_lines=True)


def vote_section(ctx: Context) -> None:
    """One blind pair with four buttons, the names revealed after the vote, vote counts."""
    st.caption(
        "Judge two answers to the same question without knowing which variant wrote "
        "them. Your votes become the battles of the judge **human:your name**: pick "
        "it in the sidebar's Judge list for its own ratings; the Judge health tab "
        "shows how often the model judges agree with the people."
    )
    if not ctx.voter:
        st.info("Enter your name in the sidebar (or start the app with `ARENA_USER` set) to vote.")
        return
    _revealed()
    counts = vote_counts(data.get_store(ctx.url), ctx.run_id)
    mine = counts.get(f"human:{ctx.voter}", 0)
    others = ", ".join(f"{md(name)}: {n}" for name, n in sorted(counts.items()))
    st.markdown(
        f"Votes on run #{ctx.run_id}: **{mine}** by you"
        + (f" (everyone: {others})" if others else "")
    )
    pair = _current(ctx)
    if pair is None:
        st.info("You have voted on every pair of answers of this run. Thank you!")
        return
    st.markdown(f"**Question** (case {md(pair.case_id)})")
    st.code(pair.query or "(empty message)", language=None, wrap_lines=True)
    show = st.checkbox("Show each answer's tool calls", key="vote_trajectories")
    left, right = st.columns(2, gap="large")
    _answer(left, "Answer A", pair.answer_a, pair.trajectory_a, show)
    _answer(right, "Answer B", pair.answer_b, pair.trajectory_b, show)
    for column, (winner, label) in zip(st.columns(4), VOTE_CHOICES.items(), strict=True):
        column.button(
            label, key=f"vote_{winner}", width="stretch", on_click=_vote, args=(ctx, pair, winner)
        )

"""The Vote tab: people judge blind pairs of answers; each vote is a ``human:NAME`` battle.

The pairs the judge abstained on come first, most decision-relevant first
(:func:`arena.votes.pending_escalations`: the gate's pairs, then close ranks, then the
rest), each with why it is in the queue and how many remain; then random pairs. A pair is
shown without the variants' names, in a random order; four buttons record the vote, then the
names are revealed (a second vote on a pair, from another tab or under a name that normalises
to the same, is refused with an "already voted" warning). A pair of conversations is shown
whole, turn by turn, side by side (:func:`arena.app.dialogue_view.render_dialogue`); pairs
where either side's simulated user failed are never offered. Answers, queries and
trajectories come from models and users: they are shown in code blocks only (text, never
HTML). The votes are read back by the leaderboard (the judge selector offers each voter) and
the Judge health tab (model judges' agreement with the humans).
"""

from __future__ import annotations

import random
from typing import Any

import streamlit as st

from arena.app import data
from arena.app.dialogue_view import load_dialogue, render_dialogue
from arena.app.text import error_text, md
from arena.app.views import Context
from arena.errors import AlreadyVoted, InputError
from arena.votes import (
    VOTE_CHOICES,
    Escalation,
    RankInterval,
    VotePair,
    cast_vote,
    next_pair,
    open_pairs,
    pending_escalations,
    queue_counts,
    vote_counts,
)
from arena.votes._ballots import swapped
from judges._human import is_human_label

PAIR = "vote_pair"
LAST = "vote_last"
WHY = "vote_why"
#: The variant the gate compares candidates against, when the run has one by that name.
BASELINE = "baseline"


def _slot(ctx: Context) -> str:
    """Session key of the pair on screen: one per run and voter."""
    return f"{PAIR}:{ctx.run_id}:{ctx.voter}"


def _model_judge(ctx: Context) -> str | None:
    """The selected judge when it is a model, else None (the run's latest model judge)."""
    return None if ctx.judge_label is None or is_human_label(ctx.judge_label) else ctx.judge_key


def _ranking(ctx: Context, judge_key: str | None) -> list[RankInterval]:
    """The rated variants, best first, with their intervals (the leaderboard's own fit)."""
    board = data.load_leaderboard(ctx.url, ctx.run_id, judge_key)
    return [
        RankInterval(e["variant"], e["ci_low"], e["ci_high"])
        for e in board["entries"]
        if e["rating"] is not None
    ]


def waiting_pairs(ctx: Context) -> list[Escalation]:
    """The run's abstained pairs nobody has voted on, most decision-relevant first."""
    store = data.get_store(ctx.url)
    judge = _model_judge(ctx)
    if not pending_escalations(store, ctx.run_id, judge):
        return []
    baseline = BASELINE if BASELINE in ctx.run["variants"] else None
    return pending_escalations(
        store, ctx.run_id, judge, baseline=baseline, ranking=_ranking(ctx, judge)
    )


def _escalated(ctx: Context, queue: list[Escalation]) -> tuple[VotePair, str] | None:
    """The first pair of the queue this person can vote on, in a random order, and why."""
    if not queue:
        return None
    pairs = {
        frozenset((p.result_a_id, p.result_b_id)): p
        for p in open_pairs(data.get_store(ctx.url), ctx.run_id, ctx.voter)
    }
    for item in queue:
        pair = pairs.get(frozenset((item.battle.result_a_id, item.battle.result_b_id)))
        if pair is not None:
            return (swapped(pair) if random.random() < 0.5 else pair), item.why
    return None


def _current(ctx: Context, queue: list[Escalation]) -> tuple[VotePair | None, str]:
    """The pair on screen and why it is there: the head of the queue of abstained pairs, else
    a random pair this person has not voted on ('' as the why)."""
    slot = _slot(ctx)
    if slot not in st.session_state:
        found = _escalated(ctx, queue)
        pair, why = found if found is not None else (None, "")
        if pair is None:
            pair = next_pair(data.get_store(ctx.url), ctx.run_id, ctx.voter)
        st.session_state[slot] = None if pair is None else pair.model_dump()
        st.session_state[WHY] = why
    raw = st.session_state[slot]
    pair = None if raw is None else VotePair.model_validate(raw)
    return pair, st.session_state.get(WHY, "")


def _queue_line(queue: list[Escalation]) -> None:
    """How many abstained pairs wait for a person, and how many of them could move what."""
    if not queue:
        return
    counts = queue_counts(queue)
    n = len(queue)
    st.markdown(
        f"**{n} {'pair waits' if n == 1 else 'pairs wait'} for a person**: the judge "
        f"withheld its verdict on {'it' if n == 1 else 'them'} ({counts['gate']} could move "
        f"the gate verdict, {counts['rank']} a rank, {counts['other']} other). They come "
        "first; your vote counts in the ratings in the judge's place."
    )


def _vote(ctx: Context, pair: VotePair, winner: str) -> None:
    """Button callback: store the vote, reveal the names, move on to another pair."""
    try:
        cast_vote(data.get_store(ctx.url), pair, ctx.voter, winner)
    except AlreadyVoted:
        st.session_state[LAST] = {"already": True, "case": pair.case_id}
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
    if "already" in last:
        st.warning(
            f"You already voted on this pair of case {md(last['case'])} (in another tab or "
            "window, or under a name that is the same as yours once normalised): your first "
            "vote stands and this one was not stored."
        )
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


def _conversations(ctx: Context, pair: VotePair, show: bool) -> bool:
    """Both sides of a pair of conversations, turn by turn, side by side; False (nothing
    shown) when the pair is of one-message answers."""
    view_a = load_dialogue(ctx.url, pair.result_a_id)
    view_b = load_dialogue(ctx.url, pair.result_b_id)
    if view_a is None or view_b is None:
        return False
    for column, title, view in zip(st.columns(2, gap="large"), "AB", (view_a, view_b), strict=True):
        with column:
            st.markdown(f"**Conversation {title}**")
            render_dialogue(view, title, tools=show)
    return True


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
    queue = waiting_pairs(ctx)
    _queue_line(queue)
    pair, why = _current(ctx, queue)
    if pair is None:
        st.info("You have voted on every pair of answers of this run. Thank you!")
        return
    if why:
        st.info(f"**Why this pair:** {md(why)}")
    st.markdown(f"**Question** (case {md(pair.case_id)})")
    st.code(pair.query or "(empty message)", language=None, wrap_lines=True)
    show = st.checkbox("Show each answer's tool calls", key="vote_trajectories")
    if not _conversations(ctx, pair, show):
        left, right = st.columns(2, gap="large")
        _answer(left, "Answer A", pair.answer_a, pair.trajectory_a, show)
        _answer(right, "Answer B", pair.answer_b, pair.trajectory_b, show)
    for column, (winner, label) in zip(st.columns(4), VOTE_CHOICES.items(), strict=True):
        column.button(
            label, key=f"vote_{winner}", width="stretch", on_click=_vote, args=(ctx, pair, winner)
        )

"""The Production shadow tab: a shadow run (``arena shadow``) beside the golden runs.

The candidate's win rate against production over every shadow run of the same candidate and
traces source (one point per run, with its 95% interval), and the traces it lost in the
selected run with production's and the candidate's answers side by side. Answers are model
(and user) text: they are shown in table cells and code blocks, never as Markdown.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from arena import display
from arena.app import charts, data
from arena.app.text import code, md, plural
from arena.app.views import Context

NOT_SHADOW = (
    "Run #{run} is not a shadow run with a candidate. `arena shadow --traces FILE "
    "--candidate VARIANT` replays sampled production traces on a candidate; select that run "
    "to see its win rate against production over time and the traces it lost."
)
LOSS_COLUMNS = {
    "trace_id": "Trace",
    "query": "Query",
    "production": "Production answer",
    "candidate": "Candidate answer",
    "flip": "Orders disagreed",
}


def history_table(history: pd.DataFrame) -> pd.DataFrame:
    """One row per shadow run: its label, battles, win rate and interval (percentages in
    the shared format of :mod:`arena.display`)."""
    return pd.DataFrame(
        {
            "Run": history["run"],
            "Battles": history["battles"],
            "Win rate": [display.percent(v) for v in history["win_rate"]],
            "95% low": [display.percent(v) for v in history["ci_low"]],
            "95% high": [display.percent(v) for v in history["ci_high"]],
            "Judge": history["judge"],
        }
    )


def shadow_section(ctx: Context) -> None:
    """The selected shadow run's win rate over time and its lost traces."""
    history = data.load_shadow_history(ctx.url, ctx.run_id, ctx.judge_key)
    if history.empty:
        st.info(NOT_SHADOW.format(run=ctx.run_id))
        return
    history["run"] = [
        f"#{r.run_id} {r.created_at:%m-%d %H:%M}" for r in history.itertuples(index=False)
    ]
    this = history[history["run_id"] == ctx.run_id].iloc[0]
    st.markdown(
        f"Candidate **{md(this['candidate'])}** against production's answers, traces from "
        f"`{code(this['traces'])}`: {plural(len(history), 'shadow run')}, oldest first. "
        "A win counts 1, a tie half; at 50% the candidate is as good as production."
    )
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.altair_chart(charts.shadow_trend(history), width="stretch")
    with right:
        st.dataframe(history_table(history), hide_index=True)
    lost_traces(ctx)


def lost_traces(ctx: Context) -> None:
    """The traces the candidate lost in the selected run, both answers side by side."""
    losses = data.load_shadow_losses(ctx.url, ctx.run_id, ctx.judge_key)
    st.subheader(f"Traces lost in run #{ctx.run_id} ({len(losses)})")
    if losses.empty:
        st.success("The candidate lost no trace in this run.")
        return
    st.dataframe(
        losses[list(LOSS_COLUMNS)].rename(columns=LOSS_COLUMNS),
        hide_index=True,
        width="stretch",
    )
    pick = st.selectbox(
        "Lost trace",
        list(range(len(losses))),
        key="shadow_loss",
        format_func=lambda i: str(losses.iloc[i]["trace_id"]),
    )
    row = losses.iloc[pick]
    st.code(row["query"], language=None, wrap_lines=True)
    left, right = st.columns(2, gap="large")
    for column, (title, answer) in zip(
        (left, right),
        (("Production", row["production"]), ("Candidate", row["candidate"])),
        strict=True,
    ):
        with column:
            st.caption(title)
            st.code(answer or "(empty answer)", language=None, wrap_lines=True)

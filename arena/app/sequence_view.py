"""The confidence sequence over cases: how the candidate's win share and its anytime-valid
interval evolve case by case, in the seeded order ``arena compare --sequential`` uses.

Read from the stored battles of the selected judge (the golden scores when the run has no
judge), never from a model.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from arena.app import data

ALPHA = 0.05
MARGIN = 0.05


@st.cache_data(ttl=data.TTL, show_spinner=False)
def load_sequence(
    url: str, run_id: int, baseline: str, candidate: str, judge_key: str | None, seed: int = 0
) -> list[dict[str, Any]]:
    """The confidence sequence of the pair on the run, one dict per case with an outcome."""
    from arena.sequential._trace import (
        case_order,
        confidence_trace,
        golden_outcomes,
        judged_outcomes,
    )

    store = data.get_store(url)
    outcomes = (
        judged_outcomes(store, run_id, baseline, candidate, judge_key)
        if judge_key
        else golden_outcomes(store, run_id, baseline, candidate)
    )
    cases = store.run(run_id).config.get("cases") or sorted(outcomes)
    ordered = [(c, outcomes[c]) for c in case_order(cases, seed) if c in outcomes]
    horizon = max(len(cases) // 2, 1)
    return [p.model_dump() for p in confidence_trace(ordered, ALPHA, horizon=horizon)]


def sequence_chart(points: list[dict[str, Any]], margin: float = MARGIN) -> alt.LayerChart:
    """The interval as a band, the running mean as a line, 0.5 and the margin as rules."""
    frame = pd.DataFrame(points)
    base = alt.Chart(frame).encode(x=alt.X("n:Q", title="Cases so far"))
    band = base.mark_area(opacity=0.25).encode(
        y=alt.Y("lower:Q", title="Candidate win share", scale=alt.Scale(domain=[0, 1])),
        y2="upper:Q",
        tooltip=[
            alt.Tooltip("n:Q", title="Cases"),
            alt.Tooltip("case_id:N", title="Case"),
            alt.Tooltip("outcome:Q", title="Outcome", format=".2f"),
            alt.Tooltip("lower:Q", title="Low", format=".3f"),
            alt.Tooltip("upper:Q", title="High", format=".3f"),
        ],
    )
    line = base.mark_line(point=True).encode(y="mean:Q")
    rules = (
        alt.Chart(pd.DataFrame({"y": [0.5, 0.5 - margin], "what": ["equal", "margin"]}))
        .mark_rule(strokeDash=[4, 4])
        .encode(y="y:Q", color=alt.Color("what:N", legend=alt.Legend(title=None)))
    )
    return (band + line + rules).properties(
        height=260, title=f"Anytime-valid {1 - ALPHA:.0%} confidence sequence over cases"
    )


def sequence_section(url: str, run_id: int, baseline: str, candidate: str, judge: Any) -> None:
    """The chart with a line saying where the sequence stands now."""
    points = load_sequence(url, run_id, baseline, candidate, judge)
    if not points:
        st.info("No case has an outcome for this pair yet: nothing to chart.")
        return
    last = points[-1]
    st.caption(
        f"After {last['n']} cases (in the seeded order `arena compare --sequential` uses): "
        f"win share {last['mean']:.2f}, interval [{last['lower']:.3f}, {last['upper']:.3f}]. "
        "The interval holds at every case at once, so stopping as soon as it clears a line "
        "is safe."
    )
    st.altair_chart(sequence_chart(points), width="stretch")

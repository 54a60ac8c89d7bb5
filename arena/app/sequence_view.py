"""The confidence sequence over cases: how the candidate's win share and its anytime-valid
interval evolve case by case, in the seeded order ``arena compare --sequential`` uses.

Read from the stored battles of the selected judge (the golden scores when the run has no
judge), never from a model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from arena.app import data
from arena.compare.sequential._sequence import level
from arena.sequential import SPENDING

if TYPE_CHECKING:
    from arena.compare.sequential._sequence import SequencePlan
    from arena.storage import Store

ALPHA = 0.05
MARGIN = 0.05


def _stored_plan(
    store: Store, run_id: int, baseline: str, candidate: str, judge_key: str | None
) -> SequencePlan | None:
    """The sequence ``arena compare/gate --sequential`` stored for this pair on this run's
    dataset and variant versions (either question), if any has evidence."""
    from arena.compare.sequential._sequence import load_plan, sequence_key
    from arena.sequential import NON_INFERIORITY, THREE_WAY

    run = store.run(run_id)
    hashes = run.config.get("variants") or {}
    if baseline not in hashes or candidate not in hashes:
        return None
    for question in (THREE_WAY, NON_INFERIORITY):
        key = sequence_key(run.dataset, hashes[baseline], hashes[candidate], judge_key, question)
        plan = load_plan(store, key)
        if plan is not None and plan.evidence:
            return plan
    return None


def _points(sequence: Any, outcomes: list[tuple[str, float]]) -> list[dict[str, Any]]:
    points = []
    for n, (case_id, outcome) in enumerate(outcomes, start=1):
        sequence.update([outcome])
        low, high = sequence.bounds()
        points.append(
            {
                "n": n,
                "case_id": case_id,
                "outcome": outcome,
                "mean": float(sequence.mean()[0]),
                "lower": float(low[0]),
                "upper": float(high[0]),
            }
        )
    return points


@st.cache_data(ttl=data.TTL, show_spinner=False)
def load_sequence(
    url: str, run_id: int, baseline: str, candidate: str, judge_key: str | None
) -> dict[str, Any]:
    """The pair's confidence sequence on the run: ``points`` (one dict per case with an
    outcome), ``alpha``, ``margin`` and ``plan`` (the stored plan's line, or None).

    When ``arena compare/gate --sequential`` stored a sequence for these variant versions and
    this judge, it is drawn as decided: the stored outcomes in their order, with the plan's
    boundary, alpha and margin. Otherwise the run's outcomes are drawn in the order a first
    sequential comparison would take (the seed derived from the dataset and the variants) on
    the anytime boundary at alpha 0.05.
    """
    from arena.compare.sequential._sequence import default_horizon, derive_seed
    from arena.compare.sequential._trace import (
        case_order,
        confidence_trace,
        golden_outcomes,
        judged_outcomes,
    )

    store = data.get_store(url)
    plan = _stored_plan(store, run_id, baseline, candidate, judge_key)
    if plan is not None:
        outcomes = [(e.case_id, e.outcome) for e in plan.evidence]
        return {
            "points": _points(plan.sequence(), outcomes),
            "alpha": plan.alpha,
            "margin": plan.margin,
            "plan": plan.describe(),
            "anytime": plan.boundary != SPENDING or plan.finite,
        }
    found = (
        judged_outcomes(store, run_id, baseline, candidate, judge_key)
        if judge_key
        else golden_outcomes(store, run_id, baseline, candidate)
    )
    run = store.run(run_id)
    cases = run.config.get("cases") or sorted(found)
    hashes = run.config.get("variants") or {}
    seed = derive_seed(
        store.run_dataset(run_id),
        [hashes.get(baseline, baseline), hashes.get(candidate, candidate)],
    )
    ordered = [(c, found[c]) for c in case_order(cases, seed) if c in found]
    trace = confidence_trace(ordered, ALPHA, horizon=default_horizon(len(cases)))
    return {
        "points": [p.model_dump() for p in trace],
        "alpha": ALPHA,
        "margin": MARGIN,
        "plan": None,
        "anytime": True,
    }


def _whole_ticks(last: int, most: int = 10) -> list[int]:
    """Whole case counts for the x axis (never halves of a case), at most ``most`` ticks."""
    step = max(1, -(-last // most))
    return list(range(0, last + 1, step))


def sequence_chart(
    points: list[dict[str, Any]], margin: float = MARGIN, alpha: float = ALPHA
) -> alt.LayerChart:
    """The interval as a band, the running mean as a line, 0.5 and the margin as rules."""
    frame = pd.DataFrame(points)
    last = int(frame["n"].max()) if len(frame) else 1
    base = alt.Chart(frame).encode(
        x=alt.X(
            "n:Q",
            title="Cases so far",
            scale=alt.Scale(domain=[0, max(1, last)], nice=False),
            axis=alt.Axis(format="d", tickMinStep=1, values=_whole_ticks(last)),
        )
    )
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
        height=260, title=f"{level(alpha)} confidence sequence over cases"
    )


def _validity(anytime: bool) -> str:
    if anytime:
        return (
            "The interval holds at every case at once, so stopping as soon as it clears a "
            "line is safe."
        )
    return (
        "The interval holds at every look up to the planned budget (spending boundary), so "
        "stopping as soon as it clears a line is safe within that budget."
    )


def sequence_section(url: str, run_id: int, baseline: str, candidate: str, judge: Any) -> None:
    """The chart with a line saying where the sequence stands now and what fixes it."""
    found = load_sequence(url, run_id, baseline, candidate, judge)
    points = found["points"]
    if not points:
        st.info("No case has an outcome for this pair yet: nothing to chart.")
        return
    last = points[-1]
    if found["plan"]:
        where = (
            "The sequence `arena compare --sequential` decided on, as stored ("
            + found["plan"]
            + ")"
        )
    else:
        where = (
            "No sequential comparison is stored for these versions: this is the order and "
            f"the anytime boundary at alpha {found['alpha']:g} a first "
            "`arena compare --sequential` would use"
        )
    st.caption(
        f"{where}. After {last['n']} cases: win share {last['mean']:.2f}, interval "
        f"[{last['lower']:.3f}, {last['upper']:.3f}]. {_validity(found['anytime'])}"
    )
    st.altair_chart(sequence_chart(points, found["margin"], found["alpha"]), width="stretch")

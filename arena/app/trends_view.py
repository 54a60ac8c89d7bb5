"""The Trends tab: golden score and rating per variant across runs of the dataset, and where
each run came from (commit, branch, CI run)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from arena.app import charts, data
from arena.app.text import md
from arena.app.views import Context
from arena.reports._format import is_web_url


def trends_section(ctx: Context) -> None:
    """Golden score and rating per variant name across runs of the dataset."""
    runs = sorted(ctx.dataset_runs, key=lambda r: r["id"])[-20:]
    if len(runs) < 2:
        st.info(
            f"Only one run of {md(ctx.run['dataset'])} so far: trends appear after the next "
            "`arena run` on the same dataset."
        )
        return
    trend = data.load_trends(ctx.url, [r["id"] for r in runs])
    labels = {r["id"]: f"#{r['id']} {r['created_at']:%m-%d %H:%M}{_commit(r)}" for r in runs}
    trend["run"] = trend["run_id"].map(labels)
    current = [
        e["variant"] for e in data.load_leaderboard(ctx.url, ctx.run_id, ctx.judge_key)["entries"]
    ]
    variants = list(dict.fromkeys([*current, *trend["variant"]]))
    st.caption(
        "Every run of this dataset, oldest first; ratings use each run's latest judge "
        "and are relative to the variants of that run."
    )
    left, right = st.columns(2, gap="large")
    with left:
        st.altair_chart(
            charts.trend_chart(trend, variants, "mean_score", "Mean golden score", ".2f"),
            width="stretch",
        )
    with right:
        if trend["rating"].notna().any():
            st.altair_chart(
                charts.trend_chart(trend, variants, "rating", "Rating", ".0f"), width="stretch"
            )
        else:
            st.info("None of these runs has been judged yet.")
    origins = run_origins(runs, labels)
    if any(o["commit"] or o["CI run"] or o.get(NOT_A_LINK) for o in origins):
        st.caption("Where each run came from (recorded when it was made)")
        st.dataframe(
            origins,
            hide_index=True,
            column_config={"CI run": st.column_config.LinkColumn("CI run")},
        )


#: The column of a recorded CI URL that is not http(s) (shown as text, never as a link).
NOT_A_LINK = "CI URL (not a link)"


def run_origins(runs: list[dict[str, Any]], labels: dict[int, str]) -> list[dict[str, str]]:
    """One row per run: its label, commit, branch and CI run; the CI run's URL is a link
    only when it is http(s) (:func:`~arena.reports._format.is_web_url`), any other (a
    ``javascript:`` URL) goes to the text column :data:`NOT_A_LINK`."""
    rows = []
    for r in runs:
        found = r.get("provenance") or {}
        url = found.get("ci_url", "")
        row = {
            "run": labels[r["id"]],
            "commit": found.get("commit", ""),
            "branch": found.get("branch", ""),
            "CI run": url if is_web_url(url) else "",
        }
        if url and not is_web_url(url):
            row[NOT_A_LINK] = url
        rows.append(row)
    return rows


def _commit(run: dict[str, Any]) -> str:
    """`` abc1234 (branch)`` from a run's recorded git commit and branch, or nothing."""
    found = run.get("provenance") or {}
    commit = found.get("commit", "")[:7]
    branch = f" ({found['branch']})" if found.get("branch") else ""
    return f" {commit}{branch}" if commit else branch

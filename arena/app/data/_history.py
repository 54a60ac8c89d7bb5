"""Figures across runs, as the app reads them: per-variant trends, a shadow run's win rate
over time and its lost traces, and the latest mutation pass of a dataset."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from arena.app.data._judging import load_leaderboard
from arena.app.data._store import TTL, get_store

TREND_BOOTSTRAP = 100
"""Bootstrap rounds for the ratings of the trend chart (point estimates are what matter)."""


@st.cache_data(ttl=TTL, show_spinner=False)
def load_run_summary(url: str, run_id: int) -> list[dict[str, Any]]:
    """Per variant of one run: rating (latest judge), golden pass rate and mean score."""
    board = load_leaderboard(url, run_id, None, TREND_BOOTSTRAP)
    return [
        {
            "run_id": run_id,
            "variant": e["variant"],
            "version": e["version"],
            "rating": e["rating"],
            "pass_rate": e["pass_rate"],
            "mean_score": e["mean_score"],
        }
        for e in board["entries"]
    ]


def load_trends(url: str, run_ids: list[int]) -> pd.DataFrame:
    """Per-variant figures over several runs (each run cached on its own)."""
    rows = [row for run_id in run_ids for row in load_run_summary(url, run_id)]
    return pd.DataFrame(
        rows, columns=["run_id", "variant", "version", "rating", "pass_rate", "mean_score"]
    )


@st.cache_data(ttl=TTL, show_spinner=False)
def load_shadow_history(url: str, run_id: int, judge_key: str | None) -> pd.DataFrame:
    """The win rate against production of every shadow run of the run's candidate on the
    same traces source, oldest first (empty: not a shadow run with a candidate)."""
    from arena.production import shadow_history

    rows = []
    for point in shadow_history(get_store(url), run_id, judge_key):
        low, high = point.interval or (None, None)
        rows.append({**point.model_dump(exclude={"interval"}), "ci_low": low, "ci_high": high})
    columns = ["run_id", "created_at", "candidate", "traces", "judge", "battles", "win_rate"]
    return pd.DataFrame(rows, columns=[*columns, "ci_low", "ci_high"])


@st.cache_data(ttl=TTL, show_spinner=False)
def load_shadow_losses(url: str, run_id: int, judge_key: str | None) -> pd.DataFrame:
    """The traces the run's candidate lost, both answers side by side."""
    from arena.production import ShadowLoss, shadow_losses

    rows = [loss.model_dump() for loss in shadow_losses(get_store(url), run_id, judge_key)]
    return pd.DataFrame(rows, columns=list(ShadowLoss.model_fields))


@st.cache_data(ttl=TTL, show_spinner=False)
def load_mutation(url: str, dataset: str) -> dict[str, Any] | None:
    """The latest stored mutation pass of the dataset named ``dataset`` (None: none)."""
    from arena.mutation import latest_mutation_summary

    return latest_mutation_summary(get_store(url), dataset)

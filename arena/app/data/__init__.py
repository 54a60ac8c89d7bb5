"""Cached, read-only database reads for the app, returned as plain dicts and DataFrames.

Every function keyed by the database URL (and run id) is cached for :data:`TTL` seconds, so
the page stays fast on large databases and still picks up new runs within half a minute.
Nothing here ever calls a model. The views call them as ``data.NAME`` (tests replace one so).

- :mod:`~arena.app.data._store`: the Store per URL, the cache's lifetime, clearing it;
- :mod:`~arena.app.data._runs`: runs, results, trajectories, cases and golden scores;
- :mod:`~arena.app.data._judging`: judges, leaderboard, battles, health, compare;
- :mod:`~arena.app.data._history`: trends, shadow runs over time, mutation passes.
"""

from __future__ import annotations

from arena.app.data._history import (
    TREND_BOOTSTRAP,
    load_mutation,
    load_run_summary,
    load_shadow_history,
    load_shadow_losses,
    load_trends,
)
from arena.app.data._judging import (
    injection_note,
    load_answers,
    load_battles,
    load_compare,
    load_health,
    load_judge_details,
    load_judges,
    load_leaderboard,
)
from arena.app.data._runs import (
    GOLDEN_COLUMNS,
    SCORE_COLUMNS,
    category_pass_rates,
    golden_figures,
    load_cases,
    load_results,
    load_run_scores,
    load_runs,
    load_scores,
    load_trajectory,
)
from arena.app.data._store import ALL, TTL, clear_caches, get_store

__all__ = [
    "ALL",
    "GOLDEN_COLUMNS",
    "SCORE_COLUMNS",
    "TREND_BOOTSTRAP",
    "TTL",
    "category_pass_rates",
    "clear_caches",
    "get_store",
    "golden_figures",
    "injection_note",
    "load_answers",
    "load_battles",
    "load_cases",
    "load_compare",
    "load_health",
    "load_judge_details",
    "load_judges",
    "load_leaderboard",
    "load_mutation",
    "load_results",
    "load_run_scores",
    "load_run_summary",
    "load_runs",
    "load_scores",
    "load_shadow_history",
    "load_shadow_losses",
    "load_trajectory",
    "load_trends",
]

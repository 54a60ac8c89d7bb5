"""Cached, read-only database reads for the app, returned as plain dicts and DataFrames.

Every function keyed by the database URL (and run id) is cached for :data:`TTL` seconds, so
the page stays fast on large databases and still picks up new runs within half a minute.
Nothing here ever calls a model.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url

from arena.app.text import code, md
from arena.storage import Store
from arena.storage.engine import DEFAULT_URL

TTL = 30
"""Seconds a cached read stays valid."""
TREND_BOOTSTRAP = 100
"""Bootstrap rounds for the ratings of the trend chart (point estimates are what matter)."""
ALL = "all"

SCORE_COLUMNS = ["result_id", "variant", "case_id", "category", "tier", "repeat", "counted",
                 "score", "passed", "fail_reasons"]


def db_url() -> str:
    """The database URL: $ARENA_DB_URL, else ``sqlite:///arena.db``."""
    return os.environ.get("ARENA_DB_URL") or DEFAULT_URL


def database_problem(url: str) -> str | None:
    """Why the URL holds no readable arena database (None when it does).

    Never creates or modifies anything: a missing SQLite file is reported, not created.
    """
    try:
        parsed = make_url(url)
    except Exception as exc:  # any malformed URL becomes a message
        return f"`ARENA_DB_URL` is not a valid database URL ({md(exc)})."
    if parsed.drivername.startswith("sqlite") and parsed.database not in (None, "", ":memory:"):
        path = Path(str(parsed.database))
        if not path.exists():
            return f"There is no arena database at `{code(path)}` yet."
        if path.is_dir():
            return f"`{code(path)}` is a folder, not a database file."
        if path.stat().st_size == 0:
            return f"The database file `{code(path)}` is empty."
    engine = create_engine(url)
    try:
        tables = set(inspect(engine).get_table_names())
    except Exception as exc:  # unreadable: report, never crash
        return f"The database could not be read ({type(exc).__name__}: {md(exc)})."
    finally:
        engine.dispose()
    if not {"runs", "results", "datasets"} <= tables:
        return "The database holds no arena tables yet."
    return None


@st.cache_resource(show_spinner=False)
def get_store(url: str) -> Store:
    """One Store (engine and connection pool) per database URL."""
    return Store(url)


@st.cache_data(ttl=TTL, show_spinner=False)
def load_runs(url: str) -> list[dict[str, Any]]:
    """Every run, newest first, as plain dicts."""
    return [{"id": r.id, "dataset": r.dataset, "dataset_version": r.dataset_version,
             "status": r.status, "created_at": r.created_at,
             "variants": dict(r.config.get("variants", {})), "tier": r.config.get("tier"),
             "cases": len(r.config.get("cases", []) or []),
             "repeats": r.config.get("repeats", 1), "results": r.results, "errors": r.errors}
            for r in get_store(url).runs()]


@st.cache_data(ttl=TTL, show_spinner=False)
def load_scores(url: str, run_id: int) -> pd.DataFrame:
    """One row per scored result (CaseScore): variant, case, category, tier, score, passed."""
    from arena.evaluate import load_run_scores

    scores = load_run_scores(get_store(url), run_id)
    rows = [{"result_id": c.result_id, "variant": c.variant, "case_id": c.case_id,
             "category": c.category, "tier": c.tier, "repeat": c.repeat, "counted": c.counted,
             "score": c.score, "passed": c.passed, "fail_reasons": "; ".join(c.fail_reasons)}
            for c in scores.cases]
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)


@st.cache_data(ttl=TTL, show_spinner=False)
def load_judges(url: str, run_id: int) -> list[tuple[str, str, int]]:
    """(judge key, label, battles) of every judge used on the run, newest first."""
    return get_store(url).judge_keys(run_id)


@st.cache_data(ttl=TTL, show_spinner="Fitting ratings...")
def load_leaderboard(url: str, run_id: int, judge_key: str | None,
                     bootstrap: int = 1000) -> dict[str, Any]:
    """The run's leaderboard for one judge (entries and matrices) as a plain dict."""
    from arena.leaderboard import build_leaderboard

    board = build_leaderboard(get_store(url), run_id, judge_key=judge_key, bootstrap=bootstrap)
    return board.model_dump(mode="json")


@st.cache_data(ttl=TTL, show_spinner=False)
def load_health(url: str, run_id: int) -> list[dict[str, Any]]:
    """Judge health figures of every judge used on the run."""
    from arena.judging import judge_health

    store = get_store(url)
    return [judge_health(battles).model_dump(mode="json")
            for key, _label, _count in store.judge_keys(run_id)
            if (battles := store.battles(run_id, key))]


@st.cache_data(ttl=TTL, show_spinner=False)
def load_battles(url: str, run_id: int, judge_key: str) -> pd.DataFrame:
    """One row per battle of one judge, with both verdicts (label, rationale, error)."""
    rows = []
    for b in get_store(url).battles(run_id, judge_key):
        row: dict[str, Any] = {
            "case_id": b.case_id, "repeat": b.repeat, "variant_a": b.variant_a,
            "variant_b": b.variant_b, "result_a_id": b.result_a_id,
            "result_b_id": b.result_b_id, "winner": b.winner, "flip": b.flip,
            "error": b.error or ""}
        for order, verdict in (("ab", b.verdict_ab), ("ba", b.verdict_ba)):
            row[f"{order}_label"] = verdict.label if verdict else None
            row[f"{order}_rationale"] = verdict.rationale if verdict else ""
            row[f"{order}_error"] = (verdict.error or "") if verdict else ""
        rows.append(row)
    return pd.DataFrame(rows)


@st.cache_data(ttl=TTL, show_spinner=False)
def load_results(url: str, run_id: int) -> pd.DataFrame:
    """One row per result, without trajectories: output, error, cost, latency, tool calls."""
    rows = [{"id": r.id, "variant": r.variant, "case_id": r.case_id, "repeat": r.repeat,
             "output": r.output, "error": r.error or "", "latency_s": r.latency_s,
             "cost_usd": r.cost_usd, "tokens": r.input_tokens + r.output_tokens,
             "tool_calls": len(r.steps)}
            for r in get_store(url).results(run_id)]
    return pd.DataFrame(rows)


@st.cache_data(ttl=TTL, show_spinner=False)
def load_trajectory(url: str, result_id: int) -> list[dict[str, Any]]:
    """The tool calls of one result, in order, as plain dicts."""
    return [step.model_dump(mode="json") for step in get_store(url).result(result_id).steps]


@st.cache_data(ttl=TTL, show_spinner=False)
def load_cases(url: str, run_id: int) -> pd.DataFrame:
    """The run's golden cases: id, question, category, tier."""
    dataset = get_store(url).run_dataset(run_id)
    return pd.DataFrame([{"case_id": c.id, "input": c.input, "category": c.category.value,
                          "tier": c.tier.value} for c in dataset.test_cases],
                        columns=["case_id", "input", "category", "tier"])


@st.cache_data(ttl=TTL, show_spinner=False)
def load_compare(url: str, run_id: int, baseline: str, candidate: str,
                 judge_key: str | None) -> dict[str, Any]:
    """The compare report (verdict, win rate and interval, golden deltas) as a dict."""
    from arena.compare import compare_variants

    report = compare_variants(get_store(url), baseline, candidate, run_id=run_id,
                              judge_key=judge_key)
    return report.model_dump(mode="json")


@st.cache_data(ttl=TTL, show_spinner=False)
def load_run_summary(url: str, run_id: int) -> list[dict[str, Any]]:
    """Per variant of one run: rating (latest judge), golden pass rate and mean score."""
    board = load_leaderboard(url, run_id, None, TREND_BOOTSTRAP)
    return [{"run_id": run_id, "variant": e["variant"], "version": e["version"],
             "rating": e["rating"], "pass_rate": e["pass_rate"],
             "mean_score": e["mean_score"]} for e in board["entries"]]


def load_trends(url: str, run_ids: list[int]) -> pd.DataFrame:
    """Per-variant figures over several runs (each run cached on its own)."""
    rows = [row for run_id in run_ids for row in load_run_summary(url, run_id)]
    return pd.DataFrame(rows, columns=["run_id", "variant", "version", "rating", "pass_rate",
                                       "mean_score"])


def golden_figures(scores: pd.DataFrame, tier: str = ALL, category: str = ALL) -> pd.DataFrame:
    """Pass rate and mean score per variant over the selected tier and category.

    Like the aggregate figures, every case weighs the same whatever its repeats, and
    ``tier='all'`` covers counted cases only (pending cases are shown, never counted).
    """
    columns = ["variant", "pass_rate", "mean_score", "cases"]
    if scores.empty:
        return pd.DataFrame(columns=columns)
    chosen = scores[scores["counted"]] if tier == ALL else scores[scores["tier"] == tier]
    if category != ALL:
        chosen = chosen[chosen["category"] == category]
    if chosen.empty:
        return pd.DataFrame(columns=columns)
    per_case = (chosen.assign(passed=chosen["passed"].astype(float))
                .groupby(["variant", "case_id"])[["passed", "score"]].mean())
    grouped = per_case.groupby(level="variant")
    out = pd.DataFrame({"pass_rate": grouped["passed"].mean(),
                        "mean_score": grouped["score"].mean(), "cases": grouped.size()})
    return out.reset_index()[columns]


def category_pass_rates(scores: pd.DataFrame, tier: str = ALL) -> pd.DataFrame:
    """Pass rate per variant and category (for the category chart)."""
    frames = [golden_figures(scores, tier, category).assign(category=category)
              for category in sorted(scores["category"].unique())] if not scores.empty else []
    frames = [f for f in frames if not f.empty]
    if not frames:
        return pd.DataFrame(columns=["variant", "category", "pass_rate", "cases"])
    return pd.concat(frames, ignore_index=True)[["variant", "category", "pass_rate", "cases"]]


def clear_caches() -> None:
    """Forget every cached read (the "reload data" button)."""
    st.cache_data.clear()

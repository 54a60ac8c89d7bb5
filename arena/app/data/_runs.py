"""A golden run as the app reads it: the runs, their results, trajectories and cases, and
the golden scores (per case, per variant, per category) over the sidebar's filters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from arena.app.data._store import ALL, TTL, get_store

if TYPE_CHECKING:
    from arena.evaluation.run_scores import RunScores

SCORE_COLUMNS = [
    "result_id",
    "variant",
    "case_id",
    "category",
    "tier",
    "repeat",
    "counted",
    "score",
    "passed",
    "fail_reasons",
]
GOLDEN_COLUMNS = ["variant", "pass_rate", "mean_score", "cases"]


@st.cache_data(ttl=TTL, show_spinner=False)
def load_runs(url: str) -> list[dict[str, Any]]:
    """Every run, newest first, as plain dicts."""
    return [
        {
            "id": r.id,
            "dataset": r.dataset,
            "dataset_version": r.dataset_version,
            "status": r.status,
            "created_at": r.created_at,
            "variants": dict(r.config.get("variants", {})),
            "tier": r.config.get("tier"),
            "cases": len(r.config.get("cases", []) or []),
            "repeats": r.config.get("repeats", 1),
            "results": r.results,
            "errors": r.errors,
            "provenance": dict(r.config.get("provenance") or {}),
        }
        for r in get_store(url).runs()
    ]


@st.cache_data(ttl=TTL, show_spinner=False)
def load_run_scores(url: str, run_id: int) -> RunScores:
    """The run's case scores and per-variant aggregates (stored, else keyword scores)."""
    from arena.evaluation.run_scores import load_run_scores as run_scores

    return run_scores(get_store(url), run_id)


@st.cache_data(ttl=TTL, show_spinner=False)
def load_scores(url: str, run_id: int) -> pd.DataFrame:
    """One row per scored result (CaseScore): variant, case, category, tier, score, passed."""
    rows = [
        {
            "result_id": c.result_id,
            "variant": c.variant,
            "case_id": c.case_id,
            "category": c.category,
            "tier": c.tier,
            "repeat": c.repeat,
            "counted": c.counted,
            "score": c.score,
            "passed": c.passed,
            "fail_reasons": "; ".join(c.fail_reasons),
        }
        for c in load_run_scores(url, run_id).cases
    ]
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)


def _filter(choice: str) -> str | None:
    return None if choice == ALL else choice


@st.cache_data(ttl=TTL, show_spinner=False)
def golden_figures(url: str, run_id: int, tier: str = ALL, category: str = ALL) -> pd.DataFrame:
    """Pass rate, mean score and cases per variant over the selected tier and category.

    The figures are the scoring package's (:meth:`VariantScores.figures`): every case weighs
    the same whatever its repeats, and ``tier='all'`` covers counted cases only.
    """
    rows = [
        {
            "variant": v.variant,
            "pass_rate": stats.pass_rate,
            "mean_score": stats.mean_score,
            "cases": stats.n_cases,
        }
        for v in load_run_scores(url, run_id).variants
        if (stats := v.figures(_filter(tier), _filter(category))) is not None
    ]
    return pd.DataFrame(rows, columns=GOLDEN_COLUMNS)


@st.cache_data(ttl=TTL, show_spinner=False)
def category_pass_rates(
    url: str, run_id: int, tier: str = ALL, category: str = ALL
) -> pd.DataFrame:
    """Pass rate per variant and category over the selected tier (for the category chart)."""
    rows = [
        {
            "variant": v.variant,
            "category": name,
            "pass_rate": stats.pass_rate,
            "cases": stats.n_cases,
        }
        for v in load_run_scores(url, run_id).variants
        for name, stats in v.figures_by_category(_filter(tier)).items()
        if category in (ALL, name)
    ]
    return pd.DataFrame(rows, columns=["variant", "category", "pass_rate", "cases"])


@st.cache_data(ttl=TTL, show_spinner=False)
def load_results(url: str, run_id: int) -> pd.DataFrame:
    """One row per result, without trajectories: output, error, cost, latency, tool calls."""
    rows = [
        {
            "id": r.id,
            "variant": r.variant,
            "case_id": r.case_id,
            "repeat": r.repeat,
            "output": r.output,
            "error": r.error or "",
            "latency_s": r.latency_s,
            "cost_usd": r.cost_usd,
            "tokens": r.input_tokens + r.output_tokens,
            "tool_calls": len(r.steps),
        }
        for r in get_store(url).results(run_id)
    ]
    return pd.DataFrame(rows)


@st.cache_data(ttl=TTL, show_spinner=False)
def load_trajectory(url: str, result_id: int) -> list[dict[str, Any]]:
    """The tool calls of one result, in order, as plain dicts."""
    return [step.model_dump(mode="json") for step in get_store(url).result(result_id).steps]


@st.cache_data(ttl=TTL, show_spinner=False)
def load_cases(url: str, run_id: int) -> pd.DataFrame:
    """The run's golden cases: id, question, category, tier."""
    dataset = get_store(url).run_dataset(run_id)
    return pd.DataFrame(
        [
            {"case_id": c.id, "input": c.input, "category": c.category, "tier": c.tier.value}
            for c in dataset.test_cases
        ],
        columns=["case_id", "input", "category", "tier"],
    )

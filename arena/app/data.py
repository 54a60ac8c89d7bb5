"""Cached, read-only database reads for the app, returned as plain dicts and DataFrames.

Every function keyed by the database URL (and run id) is cached for :data:`TTL` seconds, so
the page stays fast on large databases and still picks up new runs within half a minute.
Nothing here ever calls a model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from arena.defaults import BOOTSTRAP_ROUNDS
from arena.storage import Store

if TYPE_CHECKING:
    from arena.evaluation.run_scores import RunScores

TTL = 30
"""Seconds a cached read stays valid."""
TREND_BOOTSTRAP = 100
"""Bootstrap rounds for the ratings of the trend chart (point estimates are what matter)."""
ALL = "all"
"""The sidebar's "no filter" choice of tier and category."""

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


@st.cache_resource(show_spinner=False)
def get_store(url: str) -> Store:
    """One Store (engine and connection pool) per database URL."""
    return Store(url)


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
def load_judges(url: str, run_id: int) -> list[tuple[str, str, int]]:
    """(judge key, label, battles) of every judge used on the run, newest first."""
    return get_store(url).judge_keys(run_id)


@st.cache_data(ttl=TTL, show_spinner="Fitting ratings...")
def load_leaderboard(
    url: str, run_id: int, judge_key: str | None, bootstrap: int = BOOTSTRAP_ROUNDS
) -> dict[str, Any]:
    """The run's leaderboard for one judge (entries and matrices) as a plain dict."""
    from arena.leaderboard import build_leaderboard
    from arena.ratings import RatingOptions

    board = build_leaderboard(
        get_store(url),
        run_id,
        judge_key=judge_key,
        options=RatingOptions(bootstrap_rounds=bootstrap),
    )
    return board.model_dump(mode="json")


@st.cache_data(ttl=TTL, show_spinner=False)
def load_mutation(url: str, dataset: str) -> dict[str, Any] | None:
    """The latest stored mutation pass of the dataset named ``dataset`` (None: none)."""
    from arena.mutation import latest_mutation_summary

    return latest_mutation_summary(get_store(url), dataset)


@st.cache_data(ttl=TTL, show_spinner=False)
def load_health(url: str, run_id: int) -> dict[str, Any]:
    """Every judge's health with its decisive-pair accuracy and plain-words warnings,
    judge-judge agreement and the model judges' agreement with the human votes."""
    from arena.trust import health_warnings, run_health

    report = run_health(get_store(url), run_id)
    doc = report.model_dump(mode="json")
    doc["health"] = [
        {**h.model_dump(mode="json"), "warnings": health_warnings(h)} for h in report.health
    ]
    return doc


def injection_note(marks: dict[str, list[str]]) -> str:
    """``variant: reason, reason; ...`` for a battle's suspected injections ('' if none)."""
    return "; ".join(f"{name}: {', '.join(reasons)}" for name, reasons in marks.items())


@st.cache_data(ttl=TTL, show_spinner=False)
def load_battles(url: str, run_id: int, judge_key: str) -> pd.DataFrame:
    """One row per battle of one judge, with both verdicts (label, rationale, error)."""
    rows = []
    for b in get_store(url).battles(run_id, judge_key):
        row: dict[str, Any] = {
            "case_id": b.case_id,
            "repeat": b.repeat,
            "variant_a": b.variant_a,
            "variant_b": b.variant_b,
            "result_a_id": b.result_a_id,
            "result_b_id": b.result_b_id,
            "winner": b.winner,
            "flip": b.flip,
            "error": b.error or "",
            "suspected_injection": injection_note(b.suspected_injection),
        }
        for order, verdict in (("ab", b.verdict_ab), ("ba", b.verdict_ba)):
            row[f"{order}_label"] = verdict.label if verdict else None
            row[f"{order}_rationale"] = verdict.rationale if verdict else ""
            row[f"{order}_error"] = (verdict.error or "") if verdict else ""
        rows.append(row)
    return pd.DataFrame(rows)


@st.cache_data(ttl=TTL, show_spinner=False)
def load_judge_details(
    url: str, run_id: int, result_id: int
) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(judge label, mode, table rows) per judge whose mode found something about one result
    besides its verdict (e.g. a checklist's items), rendered by the mode for the app."""
    from judges.modes.checklist._view import result_details

    found = result_details(get_store(url).battles(run_id), result_id)
    return [(d.judge, d.mode, rows) for d in found if (rows := d.rows())]


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


@st.cache_data(ttl=TTL, show_spinner=False)
def load_compare(
    url: str, run_id: int, baseline: str, candidate: str, judge_key: str | None
) -> dict[str, Any]:
    """The compare report (verdict, win rate and interval, golden deltas) as a dict."""
    from arena.gate._compare import compare_variants

    report = compare_variants(
        get_store(url), baseline, candidate, run_id=run_id, judge_key=judge_key
    )
    return report.model_dump(mode="json")


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


def clear_caches() -> None:
    """Forget every cached read (the "reload data" button)."""
    st.cache_data.clear()

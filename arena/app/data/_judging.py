"""What the judges said about a run, as the app reads it: the judges used, the leaderboard,
every battle with both verdicts, a mode's details about one result, the judges' health, and
the compare report."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from arena.app.data._store import TTL, get_store
from arena.defaults import BOOTSTRAP_ROUNDS


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


@st.cache_data(ttl=TTL, show_spinner="Answering the three questions...")
def load_answers(
    url: str, run_id: int, judge_key: str | None, bootstrap: int = BOOTSTRAP_ROUNDS
) -> dict[str, Any]:
    """Which variant is best, is the cheaper model good enough, can the judge be trusted
    (:func:`arena.gate.run_answers`), as a plain dict."""
    from arena.gate import run_answers
    from arena.leaderboard import RunLeaderboard

    board = RunLeaderboard.model_validate(load_leaderboard(url, run_id, judge_key, bootstrap))
    found = run_answers(
        get_store(url), run_id, judge_key=judge_key, bootstrap=bootstrap, board=board
    )
    return found.model_dump(mode="json")


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
            "p_a": b.p_a,
            "tie_margin": b.tie_margin,
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
def load_compare(
    url: str, run_id: int, baseline: str, candidate: str, judge_key: str | None
) -> dict[str, Any]:
    """The compare report (verdict, win rate and interval, golden deltas) as a dict."""
    from arena.compare._compare import compare_variants

    report = compare_variants(
        get_store(url), baseline, candidate, run_id=run_id, judge_key=judge_key
    )
    return report.model_dump(mode="json")

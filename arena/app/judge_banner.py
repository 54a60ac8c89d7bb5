"""Above the leaderboard: can the selected judge tell the better answer (decisive pairs), what
its selective verdicts guarantee and on what, and whether it judges its own model's answers
or prefers longer answers."""

from __future__ import annotations

from typing import Any

import streamlit as st

from arena.app import data
from arena.app.text import md

CHANCE_WARNING = (
    "**The judge {judge} cannot beat chance on this run**: on the {pairs} decisive pairs "
    "(one answer passes its golden case, the other fails) it prefers the golden winner "
    "{acc:.0f}% of the time, 95% interval {low:.0f}–{high:.0f}%, which reaches 50%. The "
    "ratings below rest on its verdicts: do not read the ranks as a result. See the Judge "
    "health tab, or judge with a stronger judge or mode (`arena judge --judge SPEC/checklist`)."
)


#: Longer answers winning more often than this among decisive battles: a length preference.
LONGER_WINS = 0.7


def health_of(report: dict[str, Any], judge_key: str) -> dict[str, Any] | None:
    """One judge's health in a :func:`data.load_health` report."""
    for health in report.get("health", []):
        if health.get("judge_key") == judge_key:
            return health if isinstance(health, dict) else None
    return None


def accuracy_of(report: dict[str, Any], judge_key: str) -> dict[str, Any] | None:
    """The decisive-pair accuracy of one judge in a :func:`data.load_health` report."""
    found = (health_of(report, judge_key) or {}).get("accuracy")
    return found if isinstance(found, dict) else None


def selective_note(health: dict[str, Any]) -> str | None:
    """The judge's selective verdicts in words: coverage and the guaranteed agreement with
    its target, error level, calibration source and size, or not calibrated (None for
    reports made before selective verdicts existed)."""
    found = health.get("selective")
    if not isinstance(found, dict):
        return None
    cascade = health.get("cascade")
    then = f" Cascade: {cascade['summary']}" if isinstance(cascade, dict) else ""
    return f"Selective verdicts: {found['summary']}{then}"


def bias_notes(health: dict[str, Any]) -> list[str]:
    """Self-judged battles (with the measured self-preference) and a length preference."""
    notes = []
    if health.get("self_judged"):
        own = health.get("self_preference") or {}
        measured = f" Measured: {own['summary']}." if own.get("summary") else ""
        notes.append(
            f"The judge is also a contestant's model: {health['self_judged']} of "
            f"{health.get('battles', 0)} battles are self-judged (it may favour its own "
            f"answers).{measured}"
        )
    longer = health.get("longer_answer_win_rate")
    if longer is not None and longer > LONGER_WINS:
        notes.append(
            f"The judge prefers longer answers: the longer answer won {100 * longer:.0f}% "
            "of its decisive battles."
        )
    return notes


def judge_trust_notes(health: dict[str, Any] | None) -> None:
    """Below the accuracy line: the selective guarantee (info) and the biases (warning)."""
    if not health:
        return
    note = selective_note(health)
    if note is not None:
        st.info(md(note))
    notes = bias_notes(health)
    if notes:
        st.warning(" ".join(md(n) for n in notes))


def judge_accuracy_banner(url: str, run_id: int, judge_key: str | None, label: str) -> None:
    """The selected judge's decisive-pair accuracy, and a warning when it cannot beat chance."""
    if not judge_key:
        return
    report = data.load_health(url, run_id)
    judge_accuracy_line(accuracy_of(report, judge_key), label)
    judge_trust_notes(health_of(report, judge_key))


def judge_accuracy_line(found: dict[str, Any] | None, label: str) -> None:
    """The decisive-pair accuracy, and a warning when it cannot beat chance."""
    if not found or found.get("accuracy") is None:
        st.info(
            f"Judge {md(label)}: decisive-pair accuracy unmeasured (no battle where one "
            "answer passes its golden case and the other fails), so nothing shows whether "
            "its verdicts follow answer quality."
        )
        return
    acc, low, high = (100 * found[k] for k in ("accuracy", "ci_low", "ci_high"))
    if found.get("beats_chance"):
        st.success(
            f"Judge {md(label)}: decisive-pair accuracy **{acc:.0f}%** (95% interval "
            f"{low:.0f}–{high:.0f}%) on {found['pairs']} decisive pairs: it beats chance."
        )
        return
    st.warning(
        CHANCE_WARNING.format(judge=md(label), pairs=found["pairs"], acc=acc, low=low, high=high)
    )

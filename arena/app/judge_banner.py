"""First on the Judge health tab: can the selected judge tell the better answer (decisive
pairs), what its selective verdicts guarantee and on what, and whether it judges its own
model's answers or prefers longer answers; each banner followed by a one-line plain reading."""

from __future__ import annotations

from typing import Any

import streamlit as st

from arena.app import data
from arena.app.text import md
from arena.display import percent

CHANCE_WARNING = (
    "**The judge {judge} cannot beat chance on this run**: on the {pairs} decisive pairs "
    "(one answer passes its golden case, the other fails) it prefers the golden winner "
    "{acc} of the time, 95% interval {low}–{high}, which reaches 50%. The leaderboard's "
    "ratings rest on its verdicts: do not read the ranks as a result. Judge with a stronger "
    "judge or mode (`arena judge --judge SPEC/checklist`)."
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


def selective_reading(health: dict[str, Any]) -> str:
    """The selective verdicts in one plain line."""
    found = health.get("selective") or {}
    given, decisive = found.get("decisive_given", 0), found.get("decisive", 0)
    if not found.get("calibration"):
        return (
            "In plain words: no labelled pairs to calibrate on, so the judge answers every "
            "pair and nothing extra is guaranteed."
        )
    return (
        f"In plain words: the judge answers only when confident enough to agree with people "
        f"at the promised rate; it answered {given} of the {decisive} pairs with a known "
        "winner; a person's vote decides the others."
    )


def bias_reading(health: dict[str, Any]) -> str:
    """The self-judging and length findings in one plain line."""
    own = health.get("self_preference") or {}
    parts = []
    if health.get("self_judged"):
        excess = own.get("excess")
        if excess is None:
            parts.append("whether it favours its own model's answers could not be measured")
        elif excess <= 0:
            parts.append(
                "it judges its own model's answers, but no preference for them was found "
                f"(it picks its own no more often than the golden checks do: {own['picks_own']}"
                f" vs {own['golden_own']} of {own['pairs']})"
            )
        else:
            parts.append(
                f"it picks its own model's answer more often than the golden checks do "
                f"({own['picks_own']} vs {own['golden_own']} of {own['pairs']})"
            )
    longer = health.get("longer_answer_win_rate")
    if longer is not None and longer > LONGER_WINS:
        parts.append("a longer answer tends to win, so check that length is not doing the work")
    return "In plain words: " + "; ".join(parts) + "." if parts else ""


def judge_trust_notes(health: dict[str, Any] | None) -> None:
    """Below the accuracy line: the selective guarantee and the biases, each read plainly
    (a bias that was measured and not found is information, not an alarm)."""
    if not health:
        return
    note = selective_note(health)
    if note is not None:
        st.info(md(note))
        st.caption(md(selective_reading(health)))
    notes = bias_notes(health)
    if notes:
        own = health.get("self_preference") or {}
        found = (own.get("excess") or 0) > 0 or (
            (health.get("longer_answer_win_rate") or 0) > LONGER_WINS
        )
        box = st.warning if found else st.info
        box(" ".join(md(n) for n in notes))
        st.caption(md(bias_reading(health)))


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
    acc, low, high = (percent(found[k]) for k in ("accuracy", "ci_low", "ci_high"))
    right = f"right on {found.get('correct', '?')} of {found['pairs']}"
    if found.get("beats_chance"):
        st.success(
            f"Judge {md(label)}: decisive-pair accuracy **{md(acc)}** (95% interval "
            f"{md(low)}–{md(high)}), {right} decisive pairs: it beats chance."
        )
        st.caption(
            "In plain words: when one answer clearly passes and the other clearly fails, "
            f"this judge picks the passing one ({right}), so its ratings can be trusted."
        )
        return
    st.warning(
        CHANCE_WARNING.format(judge=md(label), pairs=found["pairs"], acc=acc, low=low, high=high)
    )
    st.caption(
        f"In plain words: on clear-cut pairs this judge is {right}, no better than a coin "
        "toss; trust the golden pass rates, not its ratings."
    )

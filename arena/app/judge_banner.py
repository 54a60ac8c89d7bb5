"""Above the leaderboard: can the selected judge tell the better answer? (decisive pairs)"""

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


def accuracy_of(report: dict[str, Any], judge_key: str) -> dict[str, Any] | None:
    """The decisive-pair accuracy of one judge in a :func:`data.load_health` report."""
    for health in report.get("health", []):
        if health.get("judge_key") == judge_key:
            found = health.get("accuracy")
            return found if isinstance(found, dict) else None
    return None


def judge_accuracy_banner(url: str, run_id: int, judge_key: str | None, label: str) -> None:
    """The selected judge's decisive-pair accuracy, and a warning when it cannot beat chance."""
    if not judge_key:
        return
    found = accuracy_of(data.load_health(url, run_id), judge_key)
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

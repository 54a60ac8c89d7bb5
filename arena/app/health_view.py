"""The Judge health tab: each judge's biases, its decisive-pair accuracy against the golden
scores, its selective verdicts (coverage, guaranteed agreement and what backs it), its
self-preference, and how often the model judges agree with the people who voted (live)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from arena.app import data
from arena.app.text import md
from arena.app.views import Context
from arena.reports._format import pct

PERCENT = [
    "position_consistency",
    "first_position_win_rate",
    "longer_answer_win_rate",
    "tie_rate",
    "error_rate",
]
HELPS = [
    "Same verdict in both orders",
    "First-shown answer preferred (ideal ~50%)",
    "Longer answer preferred among decisive battles (ideal ~50%)",
    "Battles ending in a tie",
    "Battles whose verdict could not be read",
]


def _accuracy(found: dict[str, Any] | None) -> tuple[float | None, str, int]:
    """(accuracy in %, its 95% interval, decisive pairs) of one judge."""
    if not found or found.get("accuracy") is None:
        return None, "-", 0
    low, high = found["ci_low"], found["ci_high"]
    return 100 * found["accuracy"], f"{100 * low:.0f} – {100 * high:.0f}", found["pairs"]


def health_table(health: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per judge: biases, decisive-pair accuracy and plain-words warnings."""
    frame = pd.DataFrame(health)
    accuracy = [_accuracy(h.get("accuracy")) for h in health]
    frame[PERCENT] = frame[PERCENT].astype(float) * 100
    if "suspected_injection" not in frame:
        frame["suspected_injection"] = 0
    table = frame[
        ["judge", "judge_key", "battles", *PERCENT, "self_judged", "suspected_injection"]
    ].rename(
        columns={
            "judge": "Judge",
            "judge_key": "Key",
            "battles": "Battles",
            "position_consistency": "Consistency",
            "first_position_win_rate": "First wins",
            "longer_answer_win_rate": "Longer wins",
            "tie_rate": "Ties",
            "error_rate": "Errors",
            "self_judged": "Self-judged",
            "suspected_injection": "Suspected injections",
        }
    )
    # Answers that crashed: decided without the judge, in none of its figures.
    table["Crashes"] = [h.get("crashes", 0) for h in health]
    table["Decisive-pair accuracy"] = [a for a, _, _ in accuracy]
    table["Accuracy 95% CI"] = [ci for _, ci, _ in accuracy]
    table["Decisive pairs"] = [n for _, _, n in accuracy]
    table["Coverage"] = [_coverage(h.get("selective")) for h in health]
    table["Coverage (all battles)"] = [
        _coverage(h.get("selective"), "coverage_all") for h in health
    ]
    table["Selective verdicts"] = [_summary(h.get("selective"), "-") for h in health]
    table["Self-preference"] = [
        _summary(h.get("self_preference"), "-") if h.get("self_judged") else "-" for h in health
    ]
    table["Warnings"] = [", ".join(h["warnings"]) or "none" for h in health]
    return table


def _coverage(found: dict[str, Any] | None, field: str = "coverage") -> float | None:
    """Share of the judge's decisive-like pairs (``coverage``) or of all its battles
    (``coverage_all``) its selective verdicts give, in % (None: unknown)."""
    value = (found or {}).get(field)
    return None if value is None else 100 * float(value)


def _summary(found: dict[str, Any] | None, default: str) -> str:
    return str((found or {}).get("summary") or default)


def health_section(ctx: Context) -> None:
    """The health table, then agreement between judges and with the human votes."""
    report = data.load_health(ctx.url, ctx.run_id)
    if not report["health"]:
        st.info(
            f"No judge has judged run #{ctx.run_id} yet: `arena judge {ctx.run_id}`, or "
            "vote in the Vote tab."
        )
        return
    st.caption(
        "A healthy judge gives the same verdict in both orders (consistency near 100%), "
        "favours the first-shown answer about half the time, does not simply prefer "
        "the longer answer (near 50%) and rarely errs. **Decisive-pair accuracy**: "
        "among battles where one answer passes its golden case and the other fails "
        "(or their golden scores differ by 0.3 or more), the share where the judge "
        "prefers the golden winner (a tie counts as a miss), with a 95% interval over "
        "golden cases: a judge whose interval reaches 50% cannot beat chance. **Selective "
        "verdicts**: the judge abstains below a confidence threshold chosen on labelled "
        "pairs so that the verdicts it gives agree with people at least the target share "
        "of the time, with the stated probability; the line says on which labelled pairs."
    )
    table = health_table(report["health"])
    config = {
        name: st.column_config.NumberColumn(format="%.0f%%", help=text)
        for name, text in zip(table.columns[3:8], HELPS, strict=True)
    }
    config["Decisive-pair accuracy"] = st.column_config.NumberColumn(
        format="%.0f%%", help="Share of decisive pairs where the judge prefers the golden winner"
    )
    config["Coverage"] = st.column_config.NumberColumn(
        format="%.0f%%",
        help="Share of the run's decisive-like pairs (a golden check or a vote names a "
        "winner: the pairs the guarantee is about) given at the selective threshold (the rest "
        "wait for a person)",
    )
    config["Coverage (all battles)"] = st.column_config.NumberColumn(
        format="%.0f%%", help="Share of all the judge's scored battles given"
    )
    config["Suspected injections"] = st.column_config.NumberColumn(
        help="Battles with an answer that addresses the judge instead of the user (a note to "
        "the grader, a forged checklist line, chat-template tokens): that answer never wins"
    )
    st.dataframe(table, hide_index=True, width="stretch", column_config=config)
    agreement_section(report)


def agreement_section(report: dict[str, Any]) -> None:
    """Judge-judge agreement, and each model judge against the human votes."""
    rows = [
        {
            "Judges": " vs ".join(p["judges"]),
            "Battles": p["n"],
            "Agreement": pct(p["percent"], 0, "-"),
            "Cohen's kappa": "-" if p["kappa"] is None else f"{p['kappa']:.2f}",
        }
        for p in report["judge_agreement"]
    ]
    if rows:
        st.subheader("Agreement between the model judges")
        st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.subheader("Agreement with people")
    if not report["human_votes"]:
        st.info("Nobody has voted on this run yet: votes cast in the Vote tab show up here.")
        return
    st.caption(
        f"{report['human_votes']} votes by {md(', '.join(report['humans']))}. Every "
        "vote of a judge is compared with every human vote on the same pair (MT-Bench "
        "style); without ties leaves out pairs where either side is a tie."
    )
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "Judge": h["label"],
                    "Key": h["judge"],
                    "With ties": f"{pct(h['percent'], 0, '-')} of {h['n']}",
                    "Kappa": "-" if h["kappa"] is None else f"{h['kappa']:.2f}",
                    "Without ties": f"{pct(h['without_ties']['percent'], 0, '-')} of "
                    f"{h['without_ties']['n']}",
                    "Kappa (no ties)": "-"
                    if h["without_ties"]["kappa"] is None
                    else f"{h['without_ties']['kappa']:.2f}",
                }
                for h in report["human_agreement"]
            ]
        ),
        hide_index=True,
    )
    if report["human_human"]:
        between = report["human_human"]
        st.caption(
            f"People agree with each other on {pct(between['percent'], 0, '-')} of "
            f"{between['n']} compared votes."
        )

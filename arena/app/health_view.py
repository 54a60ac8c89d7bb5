"""The Judge health tab: each judge's biases, its decisive-pair accuracy against the golden
scores, its selective verdicts (coverage, guaranteed agreement and what backs it), its
self-preference, and how often the model judges agree with the people who voted (live)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from arena import display
from arena.app import data
from arena.app.text import md
from arena.app.views import Context, screen_reader_table

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


MAIN = [
    "Judge",
    "Trust",
    "Decisive-pair accuracy",
    "Accuracy 95% CI",
    "Battles",
    "Consistency",
    "First wins",
    "Longer wins",
    "Ties",
    "Errors",
    "Warnings",
]
"""The columns shown first: whether to trust the judge, then its biases."""
WIDTHS = [140, 130, 100, 100, 60, 75, 65, 70, 50, 50, 110]
"""Their widths in pixels: together they fit the main panel of a 1440 px screen."""


def trust_word(found: dict[str, Any] | None) -> str:
    """The trust verdict of one judge from its decisive-pair accuracy, in a few words."""
    if not found or found.get("accuracy") is None:
        return "unknown: no clear-cut pairs"
    return "yes: beats chance" if found.get("beats_chance") else "no: cannot beat chance"


def _accuracy(found: dict[str, Any] | None) -> tuple[str, str, int]:
    """("k/n (x%)", its 95% interval, decisive pairs) of one judge."""
    if not found or found.get("accuracy") is None:
        return display.MISSING, display.MISSING, 0
    pairs = int(found["pairs"])
    correct = found.get("correct")
    shown = (
        display.of(correct, pairs) if correct is not None else display.percent(found["accuracy"])
    )
    band = f"{display.percent(found['ci_low'])} – {display.percent(found['ci_high'])}"
    return shown, band, pairs


def health_table(health: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per judge, by name: trust verdict and decisive-pair accuracy first, then its
    biases and warnings (:data:`MAIN`), then the rest (key, self-judging, injections,
    crashes, selective coverage and verdicts). Every figure is formatted by
    :mod:`arena.display`."""
    accuracy = [_accuracy(h.get("accuracy")) for h in health]
    table = pd.DataFrame(
        {
            "Judge": [h["judge"] for h in health],
            "Trust": [trust_word(h.get("accuracy")) for h in health],
            "Decisive-pair accuracy": [a for a, _, _ in accuracy],
            "Accuracy 95% CI": [ci for _, ci, _ in accuracy],
            "Battles": [int(h.get("battles", 0)) for h in health],
            **{
                name: [display.percent(h.get(key)) for h in health]
                for name, key in zip(MAIN[5:10], PERCENT, strict=True)
            },
            "Warnings": [", ".join(h.get("warnings", [])) or "none" for h in health],
            "Key": [h["judge_key"] for h in health],
            "Decisive pairs": [n for _, _, n in accuracy],
            "Self-judged": [int(h.get("self_judged") or 0) for h in health],
            "Suspected injections": [int(h.get("suspected_injection") or 0) for h in health],
            # Answers that crashed: decided without the judge, in none of its figures.
            "Crashes": [int(h.get("crashes") or 0) for h in health],
            "Coverage": [_coverage(h.get("selective")) for h in health],
            "Coverage (all battles)": [
                _coverage(h.get("selective"), "coverage_all") for h in health
            ],
            "Selective verdicts": [_summary(h.get("selective"), "-") for h in health],
            "Self-preference": [
                _summary(h.get("self_preference"), "-") if h.get("self_judged") else "-"
                for h in health
            ],
        }
    )
    return table


def _coverage(found: dict[str, Any] | None, field: str = "coverage") -> str:
    """Share of the judge's decisive-like pairs (``coverage``) or of all its battles
    (``coverage_all``) its selective verdicts give ('-': unknown)."""
    return display.percent((found or {}).get(field))


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
    if ctx.judge_key:
        from arena.app.judge_banner import judge_accuracy_banner

        judge_accuracy_banner(ctx.url, ctx.run_id, ctx.judge_key, ctx.judge_label or "")
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
    advanced = st.toggle(
        "Advanced columns",
        key="health_advanced",
        help="Key, self-judging, suspected injections, crashes, selective coverage and verdicts",
    )
    shown = table if advanced else table[MAIN]
    text = st.column_config.TextColumn
    config: dict[str, Any] = {
        name: text(help=helped, width=width)
        for name, helped, width in zip(MAIN[5:10], HELPS, WIDTHS[5:10], strict=True)
    }
    config["Judge"] = text(width=WIDTHS[0])
    config["Accuracy 95% CI"] = text(width=WIDTHS[3])
    config["Battles"] = st.column_config.NumberColumn(width=WIDTHS[4])
    config["Trust"] = text(
        width=WIDTHS[1],
        help="Whether the judge's verdicts follow answer quality: its decisive-pair accuracy "
        "interval lies above 50%",
    )
    config["Decisive-pair accuracy"] = text(
        width=WIDTHS[2],
        help="Clear-cut pairs (one answer passes its golden case, the other fails) on which "
        "the judge prefers the passing answer",
    )
    config["Warnings"] = text(width=WIDTHS[10])
    config["Coverage"] = text(
        help="Share of the run's decisive-like pairs (a golden check or a vote names a "
        "winner: the pairs the guarantee is about) given at the selective threshold (the rest "
        "wait for a person)",
    )
    config["Coverage (all battles)"] = text(help="Share of all the judge's scored battles given")
    config["Suspected injections"] = st.column_config.NumberColumn(
        help="Battles with an answer that addresses the judge instead of the user (a note to "
        "the grader, a forged checklist line, chat-template tokens): that answer never wins"
    )
    st.dataframe(shown, hide_index=True, width="stretch", column_config=config)
    screen_reader_table(shown)
    agreement_section(report)


def agreement_section(report: dict[str, Any]) -> None:
    """Judge-judge agreement, and each model judge against the human votes."""
    rows = [
        {
            "Judges": " vs ".join(p["judges"]),
            "Battles": p["n"],
            "Agreement": display.percent(p["percent"]),
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
                    "With ties": f"{display.percent(h['percent'])} of {h['n']}",
                    "Kappa": "-" if h["kappa"] is None else f"{h['kappa']:.2f}",
                    "Without ties": f"{display.percent(h['without_ties']['percent'])} of "
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
            f"People agree with each other on {display.percent(between['percent'])} of "
            f"{between['n']} compared votes."
        )

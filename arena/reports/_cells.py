"""Table cells and sections the CLI commands share: numbers, style effects, judge accuracy
and agreement (one home, so no command imports another's private helpers)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from arena.reports._format import pct, text_table

if TYPE_CHECKING:
    from arena.trust import Agreement, JudgeAccuracy


def number(value: float | None, fmt: str = ".0f") -> str:
    """``value`` formatted, ``-`` when missing or NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return format(value, fmt)


def effects_text(effects: list[Any]) -> str:
    """Fitted style covariates (Elo points with 95% intervals); '' when there are none."""
    if not effects:
        return ""
    head = (
        "\nstyle effects in Elo points (a count: per RMS of (a - b) / (a + b + 1); seat: "
        "seat A's advantage)"
    )
    rows = [
        [
            e.name,
            number(e.elo, "+.0f"),
            f"[{number(e.ci_low, '+.0f')}, {number(e.ci_high, '+.0f')}]",
            number(e.scale, ".3f"),
        ]
        for e in effects
    ]
    return head + "\n" + text_table(["covariate", "effect", "95% CI", "RMS"], rows)


def accuracy_cell(accuracy: JudgeAccuracy | None) -> str:
    """``83% [67, 100] of 12`` (``-`` when unmeasured)."""
    if accuracy is None or accuracy.accuracy is None:
        return "-"
    return (
        f"{pct(accuracy.accuracy, 0)} [{pct(accuracy.ci_low, 0, '-')[:-1]}, "
        f"{pct(accuracy.ci_high, 0, '-')[:-1]}] of {accuracy.pairs}"
    )


def kappa_text(agreement: Agreement) -> str:
    """Cohen's kappa with two decimals, ``-`` when undefined."""
    return "-" if agreement.kappa is None else f"{agreement.kappa:.2f}"

"""``arena health --combinations`` and the demo: every way of combining a probability judge's
two orders, measured on a judged run's stored verdicts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.reports._cells import accuracy_cell, kappa_text
from arena.reports._format import pct, text_table

if TYPE_CHECKING:
    from arena.storage import Store


def combination_figures(
    store: Store, run_id: int, *, only: str | None = None, reference: str | None = None
) -> dict[str, list[Any]]:
    """Judge key -> every combination measured, for the run's positional probability judges
    (or just ``only``); agreement is with the ``reference`` judge, else the run's other model
    judge that judged the most battles."""
    from arena.evaluation.run_scores import load_run_scores
    from arena.trust import compare_combinations, golden_marks, judges_of_run
    from judges.modes import get_mode

    by_judge = judges_of_run(store, run_id)
    models = {k: b for k, b in by_judge.items() if b and not b[0].judge.is_human}
    marks = golden_marks(load_run_scores(store, run_id).cases)
    found: dict[str, list[Any]] = {}
    for key, battles in models.items():
        mode = get_mode(battles[0].judge.mode)
        if not (mode.needs_logprobs and mode.positional) or only not in (None, key):
            continue
        others = sorted((b for k, b in models.items() if k != key), key=len, reverse=True)
        chosen = models.get(reference or "") or (others[0] if others else None)
        found[key] = compare_combinations(battles, marks, chosen)
    return found


def print_combinations(key: str, rows: list[Any]) -> None:
    """One table per judge: each combination's accuracy, consistency, ties, agreement."""
    print(f"\nhow judge {key} combines its two orders (measured on this run's verdicts)")
    print(
        text_table(
            [
                "combination",
                "tie margin",
                "decisive-pair accuracy [95% CI]",
                "consistent",
                "ties",
                "agreement with the other judge (kappa)",
            ],
            [
                [
                    r.combination,
                    f"{r.margin_rule} {r.tie_margin:.3f}",
                    accuracy_cell(r.accuracy),
                    pct(r.consistency, 0, "-"),
                    pct(r.tie_rate, 0, "-"),
                    "-"
                    if r.agreement is None
                    else f"{pct(r.agreement.percent, 0, '-')} ({kappa_text(r.agreement)})",
                ]
                for r in rows
            ],
        )
    )

"""How a probability judge's two orders are best combined, measured on a judged run.

Each combination (``average`` or ``logit``, with a tie margin calibrated on the run's golden
scores or on its order noise, the fixed default, or none) is applied again to the verdicts
already stored, with no model call, and measured:
decisive-pair accuracy, position consistency, tie rate, and agreement with a reference judge
(e.g. the grades judge of the same run).
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel

from arena.defaults import BOOTSTRAP_ROUNDS
from arena.trust._accuracy import GoldenMark, JudgeAccuracy, judge_accuracy
from arena.trust._calibration import (
    apply_outcome,
    calibrated_margin,
    golden_margin,
    order_probabilities,
)
from arena.trust._health import Agreement, judge_agreement, judge_health
from judges._battle import Battle
from judges._types import COMBINATIONS, DEFAULT_TIE_MARGIN


class CombinationFigures(BaseModel):
    """One way of combining the two orders, measured on the run's battles."""

    combination: str
    margin_rule: str  # "golden" | "noise" (calibrated on the run) | "fixed" | "none"
    tie_margin: float
    accuracy: JudgeAccuracy
    consistency: float | None
    tie_rate: float | None
    agreement: Agreement | None


def _margins(
    battles: list[Battle], marks: Mapping[int, GoldenMark], combination: str
) -> list[tuple[str, float]]:
    found = {
        "golden": golden_margin(battles, marks, combination),
        "noise": calibrated_margin(order_probabilities(battles), combination),
        "fixed": DEFAULT_TIE_MARGIN,
        "none": 0.0,
    }
    return [(rule, margin) for rule, margin in found.items() if margin is not None]


def compare_combinations(
    battles: list[Battle],
    marks: Mapping[int, GoldenMark],
    reference: list[Battle] | None = None,
    *,
    rounds: int = BOOTSTRAP_ROUNDS,
) -> list[CombinationFigures]:
    """Every combination x margin rule, measured on ``battles`` (one probability judge's);
    ``reference`` is another judge's battles on the same run, for agreement."""
    rows = []
    for combination in COMBINATIONS:
        for rule, margin in _margins(battles, marks, combination):
            again = [b.model_copy(deep=True) for b in battles]
            for battle in again:
                apply_outcome(battle, margin, combination)
            health = judge_health(again)
            rows.append(
                CombinationFigures(
                    combination=combination,
                    margin_rule=rule,
                    tie_margin=margin,
                    accuracy=judge_accuracy(again, marks, rounds=rounds),
                    consistency=health.position_consistency,
                    tie_rate=health.tie_rate,
                    agreement=judge_agreement(again, reference) if reference else None,
                )
            )
    return rows

"""``blend``: several modes' evidence and the answers' length ratio in one fitted, forced choice.

P(A better) = sigmoid(sum over features of weight * log-odds of the feature's P(A better)).
A feature is a judge mode's P(first-shown better) in this order (its own prompts, unchanged,
so its cached replies are reused) or ``length``, len(A) / (len(A) + len(B)), whose log-odds
are the log length ratio. There is no intercept, so swapping the answers swaps the outcome.
The two orders are combined in log-odds, a tie within the margin the run decides
(:func:`arena.trust.decide_tie_margin`: the judge's own, the golden pairs', or, without labels,
the one learned on a human-preference set with ties); combined without a margin, the judge must
choose: a tie only at exactly P = 0.5.

:data:`WEIGHTS` come from the open-ended choice step of ``benchmarks/judge_bench.py
--open-ended`` (:mod:`open_ended_choice`), made on the shipped human-preference set's
calibration part only, never on its held-out part: either a fitted combination, or the weight
1 on one mode alone, which is that mode made to choose (same outcomes: a positive weight keeps
the sign of the two orders' combined log-odds). Measured 2026-12-02 on the local 1.5B model,
the choice was ``checklist`` made to choose: 59% agreement with people on the 59 calibration
pairs (kappa 0.19), then 60% of the 40 held-out pairs, with ties counted (it gives none;
kappa 0.21). docs/judges.md, "Which mode judges them", has every candidate.

With fitted weights, a selective judge calibrated on the same calibration pairs would be
calibrated in sample: calibrate it on other labelled pairs (the held-out part, the team's
votes, golden-decisive pairs). The shipped weight 1 on one mode fits nothing.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage

from judges._orders import Outcome, probability_rule
from judges._parsing import label_from_probability, reading_margin
from judges._types import PairRequest, Seat, Verdict
from judges.modes._base import Asker, JudgeMode, Reading
from judges.modes._registry import judge_mode

if TYPE_CHECKING:
    from arena.golden import GoldenCase

#: The feature read from the two answers' lengths, not from a mode.
LENGTH = "length"
#: Weight per feature on its log-odds: the open-ended choice step's pick (module docstring).
WEIGHTS: dict[str, float] = {"checklist": 1.0}
#: Built-in delegates whose verdict depends on which answer is shown first.
POSITIONAL = frozenset({"rules", "logprobs", "text"})
#: The tie margin of a judge that must choose: a tie only at P = 0.5 exactly.
EXACT_TIE = 1e-12


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def length_share(answer_a: str, answer_b: str) -> float:
    """len(A) / (len(A) + len(B)), one added to each (two empty answers give 0.5)."""
    a, b = len(answer_a.strip()) + 1, len(answer_b.strip()) + 1
    return a / (a + b)


@judge_mode(
    "blend",
    "several modes' evidence and the length ratio in one combination fitted on "
    "labelled pairs; a forced choice",
    order=60,
)
class BlendMode(JudgeMode):
    """The fitted combination of :data:`WEIGHTS`, read per order, the orders in log-odds."""

    needs_logprobs = True
    positional = bool(set(WEIGHTS) & POSITIONAL)
    weights: dict[str, float] = WEIGHTS

    def __init__(self) -> None:
        from judges.modes import get_mode

        # One instance per delegate, so their shared per-answer grades are reused.
        self._modes = {name: get_mode(name) for name in self._delegates()}

    def templates(self) -> dict[str, str]:
        """Every weighted delegate's templates (the length feature has none)."""
        return {
            name: text for mode in self._modes.values() for name, text in mode.templates().items()
        }

    def _delegates(self) -> list[str]:
        return [name for name, w in self.weights.items() if name != LENGTH and w != 0.0]

    def prepare(self, case: GoldenCase, *, with_trajectory: bool) -> dict[str, Any]:
        """Each delegate's own inputs, under its name."""
        return {
            name: mode.prepare(case, with_trajectory=with_trajectory)
            for name, mode in self._modes.items()
        }

    def _inner(self, request: PairRequest, name: str) -> PairRequest:
        inputs = request.mode_inputs.get(name) or {}
        return request.model_copy(update={"mode_inputs": inputs})

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [
            conversation
            for name, mode in self._modes.items()
            for conversation in mode.conversations(self._inner(request, name))
        ]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        features: dict[str, float] = {}
        found: dict[str, Any] = {}
        calls = 0
        for name, mode in self._modes.items():
            reading = await mode.read(asker, self._inner(request, name))
            assert reading.p_first is not None  # every delegate reads probabilities
            features[name] = reading.p_first
            found[name] = reading.details
            calls += reading.calls or 1
        if self.weights.get(LENGTH):
            features[LENGTH] = length_share(request.answer_a, request.answer_b)
        z = sum(self.weights[name] * _logit(p) for name, p in features.items())
        p_first = 1.0 / (1.0 + math.exp(-z))
        shown = ", ".join(f"{name} {p:.3f}" for name, p in features.items())
        return Reading(
            label=label_from_probability(p_first, reading_margin(asker.spec)),
            p_first=p_first,
            calls=calls,
            rationale=f"P(A better): {shown}; blended {p_first:.3f}",
            details={"features": features, "modes": found},
        )

    def combine(self, ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
        """Log-odds of both orders, a tie within the run's margin (its judge's, its golden
        pairs', or the one learned for runs without labels,
        :func:`arena.trust.decide_tie_margin`); without a margin, a forced choice: a tie only
        when they balance exactly."""
        margin = EXACT_TIE if tie_margin is None else max(tie_margin, EXACT_TIE)
        return probability_rule(ab, ba, "logit", margin)

    def details_lines(self, details: dict[str, Any], seat: Seat) -> list[str]:
        """Each feature's P(first-shown better) in this order, then each delegate's lines
        (the checklist's items, for one)."""
        features = details.get("features") or {}
        lines = [f"{name}: P(first better) {float(p):.3f}" for name, p in features.items()]
        for name, found in (details.get("modes") or {}).items():
            if name in self._modes:
                lines.extend(self._modes[name].details_lines(found, seat))
        return lines

    def details_rows(self, details: dict[str, Any], seat: Seat) -> list[dict[str, Any]]:
        """Each delegate's rows (the checklist's items, for one)."""
        return [
            row
            for name, found in (details.get("modes") or {}).items()
            if name in self._modes
            for row in self._modes[name].details_rows(found, seat)
        ]

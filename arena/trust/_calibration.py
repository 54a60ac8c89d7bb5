"""The tie margin of a probability judge, calibrated on the run instead of a fixed 0.02.

A battle's combined P(A better) is a tie when it is within the margin of 0.5. Two ways to
learn the margin from the run itself:

- **golden** (the default): every run has golden scores beside its verdicts. On the decisive
  pairs (the golden checks name a winner), each margin of :data:`MARGIN_GRID` is scored as
  the ratings score a battle: +1 for the golden winner, 0 for a tie, -1 for the other answer;
  the margin with the best total wins (the smaller on equal totals). A verdict becomes a tie
  only where verdicts that close to 0.5 are no better than a coin on the pairs whose answer
  is known. Pairs the golden checks cannot separate say nothing about the margin: both
  answers passing is no evidence that they are equally good (an earlier rule fitted the
  margin to them too, and made over half the checklist judge's decisive verdicts ties). It
  needs :data:`MIN_BATTLES` decisive pairs with both orders' probabilities. One parameter is
  fitted on the run, so the decisive-pair accuracy reported beside it is measured on the
  same battles.
- **noise**: both orders tell the answer's effect apart from the slot's. Under the ``logit``
  combination, ``(l1 - l2) / 2`` follows the answers and ``(l1 + l2) / 2`` (the position
  offset) follows the slot; how much the offset varies between battles bounds the judge's own
  noise, so a battle within one standard deviation of it is a tie (``sigmoid(sd) - 0.5``;
  ``sd`` of ``(p1 + p2 - 1) / 2`` for ``average``). It needs no golden scores but overstates
  the noise when the position preference itself varies with the answers. It is the fallback
  without golden scores; judges that ignore the order (``grades``) have no offsets.

- **unlabelled**: without golden-decisive pairs, a mode with a margin learned on a public
  human-preference set with ties (:mod:`arena.trust._unlabelled`, the calibration part of
  PandaLM's annotated pairs) takes that margin, before the noise margin: a verdict near 0.5
  on answers nobody labelled is a tie where people would likely call one.

Without any, the margin is :data:`judges._types.DEFAULT_TIE_MARGIN`. A margin set in the
judge spec wins over all. :func:`decide_tie_margin` is the one place this is decided; it
returns the margin with its source and why.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from arena.trust._accuracy import GoldenMark, golden_winner
from arena.trust._unlabelled import UNLABELLED_SOURCE, unlabelled_margin
from arena.vocabulary import TIE
from judges._battle import Battle
from judges._injection import battle_marks, guarded
from judges._orders import (
    Outcome,
    combined_probability,
    position_offset,
    probability_rule,
    sigmoid,
)
from judges._types import DEFAULT_TIE_MARGIN, JudgeSpec
from judges.modes import combine

#: Fewer battles with both probabilities than this: no calibration.
MIN_BATTLES = 8
#: The margin never reaches 0.5 (that would make every battle a tie).
MAX_MARGIN = 0.45
#: The margins the golden calibration chooses from.
MARGIN_GRID = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2)


def order_probabilities(battles: list[Battle]) -> list[tuple[float, float]]:
    """(P(first better) with A first, with B first) of every battle with both readable."""
    pairs = []
    for battle in battles:
        ab, ba = battle.verdict_ab, battle.verdict_ba
        if ab is None or ba is None or not (ab.ok and ba.ok):
            continue
        if ab.p_first is not None and ba.p_first is not None:
            pairs.append((ab.p_first, ba.p_first))
    return pairs


def calibrated_margin(pairs: list[tuple[float, float]], combination: str) -> float | None:
    """The **noise** margin (in P(A better) - 0.5) from two-order probabilities, or None when
    there are too few, or when the offsets do not vary (a judge that ignores the order)."""
    if len(pairs) < MIN_BATTLES:
        return None
    offsets = [position_offset(p_ab, p_ba, combination) for p_ab, p_ba in pairs]
    spread = statistics.stdev(offsets)
    if not math.isfinite(spread) or spread <= 1e-9:
        return None
    margin = sigmoid(spread) - 0.5 if combination == "logit" else spread
    return min(margin, MAX_MARGIN)


def golden_margin(
    battles: list[Battle], marks: Mapping[int, GoldenMark], combination: str
) -> float | None:
    """The **golden** margin: the one of :data:`MARGIN_GRID` whose outcomes on the decisive
    pairs score best (+1 right, 0 tie, -1 wrong), or None with too few decisive pairs."""
    found: list[tuple[float, str]] = []
    for battle in battles:
        a, b = marks.get(battle.result_a_id), marks.get(battle.result_b_id)
        truth = None if a is None or b is None else golden_winner(a, b)
        ab, ba = battle.verdict_ab, battle.verdict_ba
        if truth is None or ab is None or ba is None:
            continue
        if ab.p_first is not None and ba.p_first is not None:
            found.append((combined_probability(ab.p_first, ba.p_first, combination), truth))
    if len(found) < MIN_BATTLES:
        return None
    # max keeps the first of equal scores: the grid ascends, so the smaller margin wins.
    return max(MARGIN_GRID, key=lambda m: sum(_points(_said(p, m), truth) for p, truth in found))


def _points(said: str, truth: str) -> int:
    return 0 if said == TIE else 1 if said == truth else -1


def _said(p_a: float, margin: float) -> str:
    if abs(p_a - 0.5) < margin:
        return TIE
    return "model_a" if p_a > 0.5 else "model_b"


MarginSource = Literal["no probabilities", "spec", "golden", "unlabelled", "noise", "default"]

#: Why each source was taken, as ``arena judge`` prints it.
MARGIN_WHY: dict[str, str] = {
    "no probabilities": "the judge gives no probabilities: a tie is a tie it says",
    "spec": "fixed by the judge (tie_margin in its file, or --tie-margin)",
    "golden": "calibrated on the run's golden-decisive pairs",
    "unlabelled": f"no labels on the run: learned for the mode on the {UNLABELLED_SOURCE}",
    "noise": "no labels on the run: the spread of the judge's own position offset",
    "default": "no labels on the run and none learned for the mode: the fixed default",
}


@dataclass(frozen=True)
class TieMargin:
    """A judge's tie margin on a run and where it comes from (``value`` is None for judges
    that give no probabilities)."""

    value: float | None
    source: MarginSource

    @property
    def why(self) -> str:
        """Where the margin comes from, in a sentence (:data:`MARGIN_WHY`)."""
        return MARGIN_WHY[self.source]


def decide_tie_margin(
    spec: JudgeSpec, battles: list[Battle], marks: Mapping[int, GoldenMark] | None = None
) -> TieMargin:
    """The margin a judge's battles are combined with, and its source: none for judges that
    give no probabilities; the spec's when it sets one; else the golden margin (with
    ``marks``), the margin learned for the mode on labelled pairs with ties
    (:func:`arena.trust._unlabelled.unlabelled_margin`), the noise margin (positional modes),
    or the default."""
    from judges.modes import get_mode

    mode = get_mode(spec.mode)
    if not mode.needs_logprobs:
        return TieMargin(None, "no probabilities")
    if spec.tie_margin is not None:
        return TieMargin(spec.tie_margin, "spec")
    if marks:
        found = golden_margin(battles, marks, spec.combine)
        if found is not None:
            return TieMargin(found, "golden")
    learned = unlabelled_margin(spec.mode)
    if learned is not None:
        return TieMargin(learned, "unlabelled")
    if mode.positional:
        noise = calibrated_margin(order_probabilities(battles), spec.combine)
        if noise is not None:
            return TieMargin(noise, "noise")
    return TieMargin(DEFAULT_TIE_MARGIN, "default")


def tie_margin(
    spec: JudgeSpec, battles: list[Battle], marks: Mapping[int, GoldenMark] | None = None
) -> float | None:
    """The margin of :func:`decide_tie_margin`, without its source."""
    return decide_tie_margin(spec, battles, marks).value


def outcome_of(
    battle: Battle, margin: float | None, combination: str | None = None
) -> Outcome | None:
    """The battle's two verdicts combined again with ``margin`` (by the judge's own rule, or
    by the probability ``combination`` given), then the injection rule (an answer suspected
    of addressing the judge never wins, :func:`judges._injection.guarded`); None for battles
    judged without two orders."""
    ab, ba = battle.verdict_ab, battle.verdict_ba
    if ab is None or ba is None:
        return None
    if combination is None:
        outcome = combine(ab, ba, margin)
    else:
        outcome = probability_rule(ab, ba, combination, margin)
    a, b = battle_marks(ab, ba)
    return guarded(outcome, bool(a), bool(b))


def apply_outcome(battle: Battle, margin: float | None, combination: str | None = None) -> bool:
    """Recombine a battle in place (see :func:`outcome_of`); True when its outcome changed."""
    outcome = outcome_of(battle, margin, combination)
    if outcome is None:
        return False
    before = _outcome_fields(battle)
    a, b = battle_marks(battle.verdict_ab, battle.verdict_ba)
    marks = {name: found for name, found in ((battle.variant_a, a), (battle.variant_b, b)) if found}
    battle.suspected_injection = marks
    battle.winner = outcome.winner  # type: ignore[assignment]
    battle.strong, battle.flip, battle.p_a = outcome.strong, outcome.flip, outcome.p_a
    battle.error, battle.tie_margin = outcome.error, margin
    return before != _outcome_fields(battle)


def _outcome_fields(battle: Battle) -> tuple[object, ...]:
    """What recombining a battle can change."""
    return (
        battle.winner,
        battle.strong,
        battle.flip,
        battle.p_a,
        battle.error,
        battle.tie_margin,
        battle.suspected_injection,
    )

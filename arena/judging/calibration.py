"""The tie margin of a probability judge, calibrated from its own verdicts on the run.

Both orders of a battle tell the answer's effect apart from the slot's: under the ``logit``
combination, with ``l1`` and ``l2`` the two orders' log-odds that the first-shown answer is
better, ``(l1 - l2) / 2`` follows the answers and ``(l1 + l2) / 2`` (the position offset)
follows the slot. A constant position preference makes the offset constant; how much the
offset *varies* from battle to battle is the judge's own noise, and under independent
per-order noise it is also the noise of the combined verdict. So a battle is a tie when its
combined verdict is within one standard deviation of the offsets from "no preference":

``margin = sigmoid(sd(offsets)) - 0.5`` (``logit``), ``sd(offsets)`` (``average``).

Judges whose verdicts do not depend on the order (``grades``) have no offsets to learn from;
like a run with fewer than :data:`MIN_BATTLES` readable battles, they keep
:data:`judges.types.DEFAULT_TIE_MARGIN`.
"""

from __future__ import annotations

import math
import statistics

from arena.judging.battle import Battle
from judges.orders import Outcome, combine, position_offset, probability_rule, sigmoid
from judges.types import DEFAULT_TIE_MARGIN, JudgeSpec

#: Fewer battles with both probabilities than this: keep the default margin.
MIN_BATTLES = 8
#: The margin never reaches 0.5 (that would make every battle a tie).
MAX_MARGIN = 0.45


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
    """The tie margin (in P(A better) - 0.5) from two-order probabilities, or None when there
    are too few, or when the offsets do not vary (a judge that ignores the order)."""
    if len(pairs) < MIN_BATTLES:
        return None
    offsets = [position_offset(p_ab, p_ba, combination) for p_ab, p_ba in pairs]
    spread = statistics.stdev(offsets)
    if not math.isfinite(spread) or spread <= 1e-9:
        return None
    margin = sigmoid(spread) - 0.5 if combination == "logit" else spread
    return min(margin, MAX_MARGIN)


def tie_margin(spec: JudgeSpec, battles: list[Battle]) -> float | None:
    """The margin a judge's battles are combined with: None for judges that give no
    probabilities; the spec's when it sets one; else the calibrated one for positional
    probability modes; else the default."""
    from judges.modes import get_mode

    mode = get_mode(spec.mode)
    if not mode.needs_logprobs:
        return None
    if spec.tie_margin is not None:
        return spec.tie_margin
    if not mode.positional:
        return DEFAULT_TIE_MARGIN
    found = calibrated_margin(order_probabilities(battles), spec.combine)
    return DEFAULT_TIE_MARGIN if found is None else found


def outcome_of(
    battle: Battle, margin: float | None, combination: str | None = None
) -> Outcome | None:
    """The battle's two verdicts combined again with ``margin`` (by the judge's own rule, or
    by the probability ``combination`` given); None for battles judged without two orders."""
    ab, ba = battle.verdict_ab, battle.verdict_ba
    if ab is None or ba is None:
        return None
    if combination is None:
        return combine(ab, ba, margin)
    return probability_rule(ab, ba, combination, margin)


def apply_outcome(battle: Battle, margin: float | None, combination: str | None = None) -> bool:
    """Recombine a battle in place (see :func:`outcome_of`); True when its outcome changed."""
    outcome = outcome_of(battle, margin, combination)
    if outcome is None:
        return False
    before = (
        battle.winner,
        battle.strong,
        battle.flip,
        battle.p_a,
        battle.error,
        battle.tie_margin,
    )
    battle.winner = outcome.winner  # type: ignore[assignment]
    battle.strong, battle.flip, battle.p_a = outcome.strong, outcome.flip, outcome.p_a
    battle.error, battle.tie_margin = outcome.error, margin
    return before != (
        battle.winner,
        battle.strong,
        battle.flip,
        battle.p_a,
        battle.error,
        battle.tie_margin,
    )

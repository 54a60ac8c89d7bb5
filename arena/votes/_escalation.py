"""Escalation to people: the pairs a selective judge abstained on, most decision-relevant first.

A judge that withholds its verdict on a pair (``Battle.abstained``) hands the pair to people.
The queue puts first the pairs whose vote could change a decision:

1. **gate**: the baseline against another variant (what ``arena gate`` and ``arena compare``
   decide on), critical cases first;
2. **rank**: two variants next to each other in the ranking whose rating intervals overlap (a
   vote could reorder them), or a variant with no rating yet;
3. **other**: every other abstained pair.

Within a group, critical cases come first, then the pairs the judge was least sure of. Pure:
the caller reads the battles, the critical cases and the ranking (see
:func:`arena.votes.pending_escalations` for the stored run's queue).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import pairwise
from typing import Literal, NamedTuple

from pydantic import BaseModel

from judges._battle import Battle

#: Why a pair is in the queue, in queue order.
EscalationReason = Literal["gate", "rank", "other"]
REASON_ORDER: dict[str, int] = {"gate": 0, "rank": 1, "other": 2}


class RankInterval(NamedTuple):
    """One variant of the ranking (best first) with its rating's 95% interval (None: none)."""

    variant: str
    low: float | None
    high: float | None


class Escalation(BaseModel):
    """One abstained battle waiting for a person, with why it is where it is in the queue."""

    battle: Battle
    reason: EscalationReason
    critical: bool
    why: str


def overlapping_neighbours(ranking: Sequence[RankInterval]) -> set[frozenset[str]]:
    """Pairs of variants next to each other in ``ranking`` (best first) whose intervals
    overlap (a missing interval overlaps everything)."""
    pairs = set()
    for upper, lower in pairwise(ranking):
        unknown = upper.low is None or lower.high is None
        if unknown or lower.high >= upper.low:  # type: ignore[operator]
            pairs.add(frozenset((upper.variant, lower.variant)))
    return pairs


def _reason(
    battle: Battle, baseline: str | None, close: set[frozenset[str]], ranked: set[str]
) -> EscalationReason:
    names = {battle.variant_a, battle.variant_b}
    if baseline is not None and baseline in names:
        return "gate"
    if frozenset(names) in close or not names <= ranked:
        return "rank"
    return "other"


def _why(battle: Battle, reason: EscalationReason, critical: bool) -> str:
    sure = "" if battle.confidence is None else f" (confidence {battle.confidence:.2f})"
    case = "a critical case" if critical else "a case"
    said = f"The judge withheld its verdict on {case}{sure}"
    if reason == "gate":
        return f"{said}; the pair is the baseline against a candidate: it could move the gate."
    if reason == "rank":
        return f"{said}; the two variants' rating intervals overlap: it could move a rank."
    return f"{said}."


def escalation_queue(
    battles: Sequence[Battle],
    *,
    baseline: str | None = None,
    critical: Collection[str] = (),
    ranking: Sequence[RankInterval] = (),
) -> list[Escalation]:
    """The abstained battles among ``battles``, most decision-relevant first.

    Args:
        battles: one judge's battles of a run (those not abstained are left out).
        baseline: the variant the gate compares candidates against (None: no gate group).
        critical: the ids of the critical golden cases.
        ranking: the rated variants, best first, with their intervals.

    Returns:
        One :class:`Escalation` per abstained battle, in queue order.
    """
    close = overlapping_neighbours(ranking)
    ranked = {r.variant for r in ranking}
    queue = []
    for battle in battles:
        if not battle.abstained:
            continue
        reason = _reason(battle, baseline, close, ranked)
        is_critical = battle.case_id in critical
        why = _why(battle, reason, is_critical)
        queue.append(Escalation(battle=battle, reason=reason, critical=is_critical, why=why))
    queue.sort(
        key=lambda e: (
            REASON_ORDER[e.reason],
            not e.critical,
            e.battle.confidence if e.battle.confidence is not None else 0.0,
            e.battle.case_id,
            e.battle.repeat,
            e.battle.variant_a,
            e.battle.variant_b,
        )
    )
    return queue


def queue_counts(queue: Sequence[Escalation]) -> dict[str, int]:
    """Pairs in the queue per reason (``gate``, ``rank``, ``other``; zero ones included)."""
    counts = dict.fromkeys(REASON_ORDER, 0)
    for item in queue:
        counts[item.reason] += 1
    return counts

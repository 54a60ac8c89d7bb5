"""Pairs a selective judge abstained on and nobody has voted on yet: does the gate's verdict
depend on them?

The gate never guesses them (they are not ties): it decides as if every undecided pair went
to the candidate, then as if every one went to the baseline. When the two verdicts differ,
the undecided pairs matter and the verdict is ``inconclusive`` with "undecided by the judge:
N pairs need a person"; otherwise the verdict stands and says how many pairs it did without.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from arena.vocabulary import MODEL_A, MODEL_B

if TYPE_CHECKING:
    from judges._battle import Battle


def need_a_person(count: int) -> str:
    """The gate's line when undecided pairs could change its verdict."""
    return (
        f"undecided by the judge: {count} pair{'s' if count != 1 else ''} need a person "
        "(vote on them in the app's Vote tab, then run the gate again)"
    )


def decided_without(count: int) -> str:
    """The gate's line when the verdict holds whichever way the undecided pairs go."""
    return (
        f"{count} pair{'s' if count != 1 else ''} undecided by the judge (abstained, no vote "
        "yet) could not change the verdict"
    )


def resolved(battles: list[Battle], candidate: str, candidate_wins: bool) -> list[Battle]:
    """The undecided ``battles`` as if each went to the candidate (or to the baseline)."""
    out = []
    for battle in battles:
        cand_is_a = battle.variant_a == candidate
        winner = MODEL_A if cand_is_a == candidate_wins else MODEL_B
        out.append(battle.model_copy(update={"winner": winner, "abstained": False}))
    return out


def undecided_matters(
    decided: list[Battle],
    waiting: list[Battle],
    candidate: str,
    verdict_of: Callable[[list[Battle]], str],
) -> bool:
    """True when the verdict on ``decided`` plus ``waiting`` resolved for the candidate
    differs from the one with them resolved for the baseline."""
    if not waiting:
        return False
    best = verdict_of(decided + resolved(waiting, candidate, True))
    worst = verdict_of(decided + resolved(waiting, candidate, False))
    return best != worst

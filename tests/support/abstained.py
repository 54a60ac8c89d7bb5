"""Battles a selective judge abstained on, in the app's demo database (run 2).

The demo judge prefers ``prompt-v2`` over ``baseline`` on every case (its answers say
"because"); marking some of those battles abstained hands them to people, who can prefer the
baseline and so move the ratings.
"""

from __future__ import annotations

from arena.battles import Battle
from arena.leaderboard._rating_inputs import select_battles
from arena.storage import Store

RUN = 2
GATE_PAIR = frozenset(("baseline", "prompt-v2"))
GATE_CASES = ("HP-001", "EC-001")
"""Critical cases whose baseline-vs-prompt-v2 battle is abstained (the gate's pairs)."""
OTHER = (frozenset(("small-model", "broken-no-tools")), "AM-001")
"""One more abstained battle, of two other variants on a standard case."""
BECAUSE = "because accuracy matters"
"""What every prompt-v2 answer ends with: how a test tells the baseline's answer apart."""


def abstain_demo_battles(url: str) -> list[Battle]:
    """Store again, as abstained (confidence 0.55), the model judge's battles of run 2 on
    :data:`GATE_PAIR` for :data:`GATE_CASES` and on :data:`OTHER`; returns them."""
    store = Store(url)
    chosen = {(GATE_PAIR, case) for case in GATE_CASES} | {OTHER}
    marked = []
    for battle in select_battles(store, RUN, None):
        if (frozenset((battle.variant_a, battle.variant_b)), battle.case_id) in chosen:
            battle = battle.model_copy(update={"abstained": True, "confidence": 0.55, "id": None})
            store.save_battle(battle)
            marked.append(battle)
    assert len(marked) == len(chosen), "the demo database changed: pick other battles"
    return marked

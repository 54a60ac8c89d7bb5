"""A run's battles as rating inputs: pick one judge's battles, and turn them into rating arrays.

Shared by the leaderboard, ``arena compare`` and ``arena battles export``. Crash battles (an
answer crashed: a loss for it, a tie when both did) are rated like judged ones; battles whose
verdict could not be read are left out, and so are the battles a selective judge abstained on
(never counted as ties): people's votes on those pairs take their place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from arena.errors import InputError
from arena.vocabulary import ERROR
from judges._human import is_human_label

if TYPE_CHECKING:
    from arena.ratings import Battles
    from arena.storage import Store
    from judges._battle import Battle


def select_battles(
    store: Store, run_id: int, judge_key: str | None, *, people: bool = True
) -> list[Battle]:
    """The run's battles from one judge (default: the model judge used most recently), with
    people's votes in place of the battles it abstained on that people voted on (``people``;
    without it, only the judge's own battles: what its battle log exports).

    Raises:
        InputError: (field ``judge``) when ``judge_key`` judged nothing on the run.
    """
    keys = store.judge_keys(run_id)
    if not keys:
        return []
    # Default: the latest model judge (people voting in the app come after).
    key = judge_key or next((k for k, label, _ in keys if not is_human_label(label)), keys[0][0])
    known = [k for k, _, _ in keys]
    if key not in known:
        raise InputError(
            f"judge {key!r} has no battles on run {run_id} (judges: {', '.join(known)})",
            field="judge",
        )
    battles = store.battles(run_id, key)
    if not people:
        return battles
    from arena.votes._people import decided_by_people

    # Where the judge abstained, people's votes on the pair stand in for its verdict.
    return decided_by_people(store, run_id, battles)


def rated(battles: list[Battle]) -> list[Battle]:
    """The battles that count in a rating: every one whose verdict could be read, crash
    battles included; abstained battles never count (not even as ties)."""
    return [b for b in battles if b.winner != ERROR and not b.abstained]


def undecided(battles: list[Battle]) -> list[Battle]:
    """The abstained battles that no person has voted on yet (among ``battles``)."""
    from arena.votes._people import pair_key

    voted = {pair_key(b) for b in battles if b.judge.is_human}
    return [b for b in battles if b.abstained and pair_key(b) not in voted]


def run_outputs(store: Store, run_id: int) -> dict[int, str]:
    """Result id -> final answer of every result of the run."""
    return {r.id: r.output for r in store.results(run_id) if r.id is not None}


def battles_to_arrays(battles: list[Battle], outputs: Mapping[int, str] | None = None) -> Battles:
    """arena.ratings.Battles from stored battles; errored battles are left out, crash battles
    count.

    The bootstrap unit is the golden case (all repeats and pairs of a case together). Answer
    lengths (characters) always come along; with ``outputs`` (result id -> answer, see
    :func:`run_outputs`) the answers' markdown counts do too, for style control.
    """
    from arena.ratings import Battles
    from arena.ratings._style_counts import markdown_counts

    usable = rated(battles)
    if not usable:
        raise InputError("no judged battles to rate: run `arena judge` first")
    style_a = style_b = None
    if outputs is not None:
        counts_a = [markdown_counts(outputs.get(b.result_a_id, "")) for b in usable]
        counts_b = [markdown_counts(outputs.get(b.result_b_id, "")) for b in usable]
        style_a = {k: [c[k] for c in counts_a] for k in counts_a[0]}
        style_b = {k: [c[k] for c in counts_b] for k in counts_b[0]}
    return Battles.from_records(
        [b.variant_a for b in usable],
        [b.variant_b for b in usable],
        [b.winner for b in usable],
        [b.case_id for b in usable],
        len_a=[b.len_a for b in usable],
        len_b=[b.len_b for b in usable],
        style_a=style_a,
        style_b=style_b,
    )

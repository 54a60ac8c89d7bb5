"""People's votes where the judge abstained: into ratings, and as labels for calibration.

A vote is a battle of a ``human:NAME`` judge (cast in the app's Vote tab); it names the same
two results as the model judge's battle on that pair, in either order. Where a model judge
abstained (``Battle.abstained``), every person's vote on the pair takes the battle's place
among the rating inputs (:func:`with_people_votes`); an abstained battle nobody voted on stays
as it is (the rating inputs leave it out). Every vote on a pair a model judge also judged is a
labelled battle (:func:`labelled_battles`): the judge's battle with the person's winner, named
from the judge's seats, for calibrating the judge on what people pick.
:func:`pending_escalations` is the queue of a stored run: the abstained battles nobody voted
on yet.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from arena.vocabulary import ERROR, MODEL_A, MODEL_B
from arena.votes._escalation import Escalation, RankInterval, escalation_queue
from judges._battle import Battle
from judges._human import is_human_label

if TYPE_CHECKING:
    from arena.storage import Store
    from judges._types import JudgeSpec

#: The same winner seen from the other seats.
_SWAPPED = {MODEL_A: MODEL_B, MODEL_B: MODEL_A}


def pair_key(battle: Battle) -> frozenset[int]:
    """The two results a battle compares, in either order."""
    return frozenset((battle.result_a_id, battle.result_b_id))


def _votes_by_pair(votes: Sequence[Battle]) -> dict[frozenset[int], list[Battle]]:
    found: dict[frozenset[int], list[Battle]] = {}
    for vote in votes:
        if vote.judge.is_human and vote.winner != ERROR:
            found.setdefault(pair_key(vote), []).append(vote)
    return found


def with_people_votes(battles: Sequence[Battle], votes: Sequence[Battle]) -> list[Battle]:
    """``battles`` with each abstained model-judge battle that people voted on replaced by
    their votes (one battle per vote, as stored), placed after the judge's own battles.

    Args:
        battles: one judge's battles of a run.
        votes: the run's ``human:NAME`` battles (other judges' battles are ignored).
    """
    by_pair = _votes_by_pair(votes)
    kept: list[Battle] = []
    decided: list[Battle] = []
    for battle in battles:
        found = by_pair.get(pair_key(battle)) if battle.abstained else None
        if found and not battle.judge.is_human:
            decided.extend(found)
        else:
            kept.append(battle)
    return kept + decided


def people_votes(store: Store, run_id: int) -> list[Battle]:
    """Every vote people cast on a run (its ``human:NAME`` battles), oldest first."""
    return [b for b in store.battles(run_id) if b.judge.is_human]


def decided_by_people(store: Store, run_id: int, battles: list[Battle]) -> list[Battle]:
    """:func:`with_people_votes` over the run's stored votes (no read when nothing abstained),
    after :func:`with_cascade_verdicts` (a later judge of a cascade stands in first); what the
    rating inputs call on one judge's battles."""
    if not any(b.abstained for b in battles):
        return battles
    others = _given_by_later_judges(store, run_id, battles[0].judge)
    return with_people_votes(with_cascade_verdicts(battles, others), people_votes(store, run_id))


def with_cascade_verdicts(battles: Sequence[Battle], given: Sequence[Battle]) -> list[Battle]:
    """``battles`` with each abstained one replaced by another model judge's battle that gave
    a selective verdict on the same pair (a cascade's later judge)."""
    by_pair = {pair_key(b): b for b in given}
    return [by_pair.get(pair_key(b), b) if b.abstained else b for b in battles]


def oriented_winner(vote: Battle, battle: Battle) -> str:
    """The vote's winner named from ``battle``'s seats (the vote may show the pair swapped)."""
    if vote.result_a_id == battle.result_a_id:
        return vote.winner
    return _SWAPPED.get(vote.winner, vote.winner)


def labelled_battles(
    battles: Sequence[Battle], votes: Sequence[Battle]
) -> list[tuple[Battle, str]]:
    """(model judge's battle, person's winner in that battle's seats), one per vote on a pair
    the judge decided or abstained on; crash battles and people's own battles are left out.
    """
    by_pair = _votes_by_pair(votes)
    labelled = []
    for battle in battles:
        if battle.judge.is_human or battle.by_rule:
            continue
        for vote in by_pair.get(pair_key(battle), []):
            labelled.append((battle, oriented_winner(vote, battle)))
    return labelled


def labelled_pairs(
    store: Store, run_id: int, judge_key: str | None = None
) -> list[tuple[Battle, str]]:
    """:func:`labelled_battles` of a stored run: every model judge's battles (or only
    ``judge_key``'s) paired with the winner each person who voted on the pair picked."""
    everything = store.battles(run_id)
    judged = [b for b in everything if not b.judge.is_human and judge_key in (None, b.judge.key)]
    return labelled_battles(judged, [b for b in everything if b.judge.is_human])


def _simulator_failed_pairs(
    store: Store, run_id: int, battles: Sequence[Battle]
) -> set[frozenset[int]]:
    """The pairs among ``battles`` where either side's simulated user failed: never queued
    for people (the failure is not the agent's; the judge no longer judges such pairs, but a
    database judged before may hold them)."""
    failed = {r.id for r in store.results(run_id) if r.simulator_error is not None}
    return {pair_key(b) for b in battles if failed & pair_key(b)}


def _given_by_later_judges(store: Store, run_id: int, spec: JudgeSpec) -> list[Battle]:
    """The battles the later judges of ``spec``'s cascade (``selective.escalate_to``) gave a
    selective verdict on: those pairs wait for nobody."""
    from arena.trust._cascade_run import cascade_specs

    others = [s.key for s in cascade_specs(spec)[1:]]
    return [
        b
        for other in others
        for b in store.battles(run_id, other)
        if b.confidence is not None and not b.abstained
    ]


def pending_escalations(
    store: Store,
    run_id: int,
    judge_key: str | None = None,
    *,
    baseline: str | None = None,
    ranking: Sequence[RankInterval] = (),
    critical: Collection[str] | None = None,
) -> list[Escalation]:
    """The run's queue for people: one model judge's abstained battles that nobody has voted
    on yet and no other model judge gave a selective verdict on (a cascade), most
    decision-relevant first (:func:`arena.votes.escalation_queue`); pairs
    where either side's simulated user failed are left out.

    ``judge_key`` defaults to the run's latest model judge; ``critical`` to the critical cases
    of the run's dataset.
    """
    keys = store.judge_keys(run_id)
    key = judge_key or next((k for k, label, _ in keys if not is_human_label(label)), None)
    if key is None:
        return []
    battles = store.battles(run_id, key)
    if not any(b.abstained for b in battles):
        return []
    if critical is None:
        dataset = store.run_dataset(run_id)
        critical = {c.id for c in dataset.test_cases if c.tier.value == "critical"}
    voted = set(_votes_by_pair(people_votes(store, run_id)))
    voted |= _simulator_failed_pairs(store, run_id, battles)
    voted |= {pair_key(b) for b in _given_by_later_judges(store, run_id, battles[0].judge)}
    waiting = [b for b in battles if b.abstained and pair_key(b) not in voted]
    return escalation_queue(waiting, baseline=baseline, critical=critical, ranking=ranking)

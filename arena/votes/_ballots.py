"""People vote on blind pairs; each vote is a battle of a ``human:NAME`` judge.

A pair is two variants' answers to the same case and repeat of a run (errors, identical
answers and conversations whose simulated user failed are never offered, as the model judges
never see them either). The order the pair is
shown in is random and is the order it is stored in: ``model_a`` is the answer shown as A.
A person votes at most once per pair, whichever order it was shown in: the database refuses
a second vote (:meth:`arena.storage.Store.save_vote`, also when two arrive at once), and a
person is their normalised name (:func:`judges._human.voter_name`: ``Ann``, ``ann`` and
full-width ``ＡＮＮ`` are one voter).
"""

from __future__ import annotations

import os
import random
from itertools import combinations
from typing import TYPE_CHECKING

from pydantic import BaseModel

from arena.battles._requests import same_answer, trajectory_text
from arena.errors import InputError
from arena.records.results import RunResult
from arena.vocabulary import LOG_WINNERS
from judges._battle import PAIR_FIELDS, Battle, pair_fields
from judges._human import human_judge, is_human_label, same_person, voter_name

if TYPE_CHECKING:
    from arena.storage import Store

#: The environment variable naming the voter when the app's sidebar does not.
USER_ENV = "ARENA_USER"
#: The buttons of the Vote tab: winner -> label.
VOTE_CHOICES: dict[str, str] = {
    "model_a": "A is better",
    "model_b": "B is better",
    "tie": "Tie",
    "tie (bothbad)": "Both are bad",
}


class VotePair(BaseModel):
    """One blind pair: the case, answer A and answer B (in the order shown)."""

    run_id: int
    case_id: str
    repeat: int
    query: str
    variant_a: str
    variant_b: str
    hash_a: str
    hash_b: str
    result_a_id: int
    result_b_id: int
    answer_a: str
    answer_b: str
    trajectory_a: str
    trajectory_b: str


def default_voter() -> str:
    """The voter named by ``ARENA_USER``, or an empty string."""
    return os.environ.get(USER_ENV, "").strip()


def _pair_id(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def voted_pairs(store: Store, run_id: int, voter: str) -> set[frozenset[int]]:
    """The result pairs (either order) this person has voted on in the run, under any name
    that normalises to theirs; InputError for a bad name."""
    person = voter_name(voter)
    return {
        _pair_id(b.result_a_id, b.result_b_id)
        for b in store.battles(run_id)
        if b.judge.is_human and same_person(b.judge.label, person)
    }


def open_pairs(store: Store, run_id: int, voter: str) -> list[VotePair]:
    """Every pair of the run this person has not voted on yet, in a fixed order (A is the
    variant listed first in the run)."""
    done = voted_pairs(store, run_id, voter)
    dataset = store.run_dataset(run_id)
    queries = {c.id: c.input for c in dataset.test_cases}
    order = list(store.run(run_id).config.get("variants", {}))
    slots: dict[tuple[str, int], dict[str, RunResult]] = {}
    for result in store.results(run_id):
        if (
            result.error is None
            and result.simulator_error is None
            and result.id is not None
            and result.case_id in queries
        ):
            slots.setdefault((result.case_id, result.repeat), {})[result.variant] = result
    pairs = []
    for (case_id, _repeat), found in slots.items():
        names = [n for n in order if n in found]
        for name_a, name_b in combinations(names, 2):
            a, b = found[name_a], found[name_b]
            assert a.id is not None and b.id is not None
            if same_answer(a, b) or _pair_id(a.id, b.id) in done:
                continue
            pairs.append(_pair(run_id, queries[case_id], a, b))
    return pairs


def _pair(run_id: int, query: str, a: RunResult, b: RunResult) -> VotePair:
    return VotePair(
        **pair_fields(run_id, a, b),
        query=query,
        answer_a=a.output,
        answer_b=b.output,
        trajectory_a=trajectory_text(a),
        trajectory_b=trajectory_text(b),
    )


def swapped(pair: VotePair) -> VotePair:
    """The same pair shown the other way round."""
    return pair.model_copy(
        update={
            "variant_a": pair.variant_b,
            "variant_b": pair.variant_a,
            "hash_a": pair.hash_b,
            "hash_b": pair.hash_a,
            "result_a_id": pair.result_b_id,
            "result_b_id": pair.result_a_id,
            "answer_a": pair.answer_b,
            "answer_b": pair.answer_a,
            "trajectory_a": pair.trajectory_b,
            "trajectory_b": pair.trajectory_a,
        }
    )


def next_pair(
    store: Store, run_id: int, voter: str, rng: random.Random | None = None
) -> VotePair | None:
    """A random pair this person has not voted on, in a random order; None when done."""
    rng = rng or random.Random()
    pairs = open_pairs(store, run_id, voter)
    if not pairs:
        return None
    pair = rng.choice(pairs)
    return swapped(pair) if rng.random() < 0.5 else pair


def cast_vote(store: Store, pair: VotePair, voter: str, winner: str) -> Battle:
    """Store one person's vote on a pair as a battle of the ``human:NAME`` judge.

    The pair's run, result ids (in the order shown), case, repeat and variants are checked
    against the stored results in the write's transaction; the answers' lengths stored are
    the stored answers'.

    Raises:
        InputError: for a bad name or winner, or a pair that is not two answered results of
            the run, of one case and repeat, of two variants (naming the field).
        AlreadyVoted: when this person already voted on the pair (in either order).
    """
    if winner not in LOG_WINNERS:
        raise InputError(
            f"a vote must be one of {', '.join(LOG_WINNERS)}, got {winner!r}", field="winner"
        )
    battle = Battle(
        **pair.model_dump(include=set(PAIR_FIELDS)),
        winner=winner,
        len_a=len(pair.answer_a),
        len_b=len(pair.answer_b),
        judge=human_judge(voter),
    )
    battle.id = store.save_vote(battle)
    return battle


def vote_counts(store: Store, run_id: int) -> dict[str, int]:
    """``human:NAME`` -> votes cast on the run."""
    return {label: count for key, label, count in store.judge_keys(run_id) if is_human_label(label)}

"""Escalation to people: the abstained pairs queued most decision-relevant first, people's
votes standing in for the judge's withheld verdicts in the ratings (leaderboard and compare),
labelled battles for calibration, and the votes in ``arena agree``."""

from __future__ import annotations

import pytest

from arena.battle_log.writer import run_battle_log
from arena.battles import Battle, judge_run
from arena.compare._compare import compare_variants
from arena.leaderboard import build_leaderboard
from arena.leaderboard._rating_inputs import select_battles
from arena.models import register_fake
from arena.ratings import RatingOptions
from arena.storage import Store
from arena.trust import log_agreement
from arena.trust._vote_files import vote_from_row
from arena.votes import (
    RankInterval,
    cast_vote,
    escalation_queue,
    labelled_battles,
    labelled_pairs,
    open_pairs,
    pending_escalations,
    queue_counts,
    with_people_votes,
)
from arena.votes._ballots import swapped
from judges import human_judge
from tests.battles.test_judges import _prefers_300, _run, _spec

pytestmark = pytest.mark.unit

_IDS = iter(range(1, 10_000))


def _battle(
    a: str,
    b: str,
    case: str = "C-0",
    *,
    abstained: bool = True,
    confidence: float | None = 0.6,
    winner: str = "model_a",
) -> Battle:
    return Battle(
        run_id=1,
        case_id=case,
        variant_a=a,
        variant_b=b,
        hash_a=a,
        hash_b=b,
        result_a_id=next(_IDS),
        result_b_id=next(_IDS),
        winner=winner,
        judge=_spec(),
        confidence=confidence,
        abstained=abstained,
    )


def test_queue_gate_pairs_first_critical_first_then_close_ranks_then_the_rest() -> None:
    rest = _battle("x", "y", "C-1")
    rank = _battle("x", "z", "C-1")
    gate_plain = _battle("baseline", "y", "C-1", confidence=0.51)
    gate_critical = _battle("y", "baseline", "CRIT", confidence=0.7)
    given = _battle("baseline", "x", "CRIT", abstained=False)
    ranking = [
        RankInterval("x", 1050.0, 1150.0),
        RankInterval("z", 1000.0, 1060.0),  # overlaps x: x-z could swap
        RankInterval("y", 800.0, 900.0),  # clearly below z
    ]
    queue = escalation_queue(
        [rest, rank, given, gate_plain, gate_critical],
        baseline="baseline",
        critical={"CRIT"},
        ranking=ranking,
    )
    assert [q.battle for q in queue] == [gate_critical, gate_plain, rank, rest]
    assert [q.reason for q in queue] == ["gate", "gate", "rank", "other"]
    assert queue[0].critical and "critical case (confidence 0.70)" in queue[0].why
    assert "could move the gate" in queue[0].why and "could move a rank" in queue[2].why
    assert queue_counts(queue) == {"gate": 2, "rank": 1, "other": 1}
    # No baseline in the run: no gate group; an unrated variant could move any rank.
    loose = escalation_queue([rest, _battle("x", "new")], ranking=ranking)
    assert [q.reason for q in loose] == ["rank", "other"]


def test_within_a_group_the_judge_least_sure_comes_first() -> None:
    sure = _battle("baseline", "y", "C-1", confidence=0.7)
    unsure = _battle("baseline", "x", "C-2", confidence=0.52)
    queue = escalation_queue([sure, unsure], baseline="baseline")
    assert [q.battle for q in queue] == [unsure, sure]


def test_votes_replace_only_the_abstained_battles_they_vote_on() -> None:
    voted, waiting, given = _battle("a", "b"), _battle("a", "c"), _battle("b", "c", abstained=False)
    vote = voted.model_copy(
        update={
            "judge": human_judge("ann"),
            "abstained": False,
            "winner": "model_b",
            "variant_a": "b",
            "variant_b": "a",
            "result_a_id": voted.result_b_id,
            "result_b_id": voted.result_a_id,
        }
    )
    other_pair = given.model_copy(update={"judge": human_judge("bob"), "winner": "model_b"})
    out = with_people_votes([voted, waiting, given], [vote, other_pair])
    assert out == [waiting, given, vote]  # a vote on a given verdict changes nothing
    assert labelled_battles([voted, waiting, given], [vote, other_pair]) == [
        (voted, "model_a"),  # the vote showed the pair swapped: named from the judge's seats
        (given, "model_b"),
    ]


def _abstain(store: Store, run_id: int, pair: set[str]) -> list[Battle]:
    """Store the judge's battles on ``pair`` of variants again as abstained ones."""
    marked = []
    for battle in select_battles(store, run_id, None):
        if {battle.variant_a, battle.variant_b} == pair:
            battle = battle.model_copy(update={"abstained": True, "confidence": 0.55, "id": None})
            store.save_battle(battle)
            marked.append(battle)
    return marked


@pytest.mark.system
def test_people_votes_where_the_judge_abstained_move_the_ratings_and_the_compare(
    store: Store,
) -> None:
    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judge_run(store, run_id, _spec(), progress=False)
    options = RatingOptions(bootstrap_rounds=50)
    board = build_leaderboard(store, run_id, options=options)
    before = {e.variant: e.rating for e in board.entries}
    assert before["good"] > before["bad"]  # the judge prefers the answer saying 300
    abstained = _abstain(store, run_id, {"good", "bad"})
    assert len(abstained) == 4
    queue = pending_escalations(store, run_id, baseline="good")
    assert len(queue) == 4 and {q.reason for q in queue} == {"gate"}
    pairs = {frozenset((p.result_a_id, p.result_b_id)): p for p in open_pairs(store, run_id, "ann")}
    for item in queue:
        pair = pairs[frozenset((item.battle.result_a_id, item.battle.result_b_id))]
        pair = swapped(pair) if pair.variant_a == "good" else pair  # shown either way round
        cast_vote(store, pair, "ann", "model_a")  # "bad" is better, says the person
    assert pending_escalations(store, run_id, baseline="good") == []
    rated = select_battles(store, run_id, None)
    assert sum(b.judge.is_human for b in rated) == 4 and not any(b.abstained for b in rated)
    board = build_leaderboard(store, run_id, options=options)
    after = {e.variant: e.rating for e in board.entries}
    assert after["bad"] > after["good"]  # the people's votes stand in for the judge's
    report = compare_variants(store, "good", "bad", run_id=run_id, bootstrap=200)
    assert report.battles == 4 and report.win_rate == 1.0  # "bad" won what people decided

    # Calibration: the judge's battle and the winner the person picked, in the judge's seats.
    labels = labelled_pairs(store, run_id)
    assert len(labels) == 4
    assert all(b.abstained and b.variant_a == "good" and w == "model_b" for b, w in labels)

    # arena agree: the person's votes export as human:ann rows and meet the judge's verdicts.
    people = run_battle_log(store, run_id, judge_key=human_judge("ann").key)
    judged = [b for b in store.battles(run_id) if not b.judge.is_human]
    from arena.trust import battle_votes

    rows = log_agreement(
        battle_votes(judged), [vote_from_row(r, "ann.jsonl", "row", None) for r in people]
    )
    (row,) = rows
    assert row.right == "human" and row.with_ties.n == 4 and row.agree_with_ties == 0

    # The model judge's own battle log holds the verdicts it gave: neither the battles it
    # abstained on nor the votes that stand in for them (those export as human:ann).
    exported = run_battle_log(store, run_id)
    assert exported and all({r["model_a"], r["model_b"]} != {"good", "bad"} for r in exported)
    assert {r["judge"] for r in exported} == {judged[0].judge.key}

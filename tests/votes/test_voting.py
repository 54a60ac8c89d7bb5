"""People's votes: stored as battles of a ``human:NAME`` judge, never twice per pair, rated on
their own, compared with the model judges by `arena health` (and its --human file)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.battles import judge_run
from arena.errors import InputError
from arena.leaderboard import build_leaderboard
from arena.leaderboard._rating_inputs import select_battles
from arena.models import ModelConfig, register_fake
from arena.ratings import RatingOptions
from arena.storage import Store
from arena.votes import cast_vote, next_pair, open_pairs, vote_counts
from judges import JudgeSpec, human_judge, parse_judge
from tests.battles.test_judges import _prefers_300, _run, _spec

pytestmark = pytest.mark.unit


def _vote_all(store: Store, run_id: int, voter: str, prefer: str = "300") -> int:
    """Vote on every open pair for the answer containing ``prefer`` (else a tie)."""
    rng, votes = random.Random(0), 0
    while (pair := next_pair(store, run_id, voter, rng)) is not None:
        a, b = prefer in pair.answer_a, prefer in pair.answer_b
        cast_vote(store, pair, voter, "model_a" if a > b else "model_b" if b > a else "tie")
        votes += 1
    return votes


def test_a_person_is_a_judge_that_cannot_be_called() -> None:
    spec = human_judge("Ann Lee")
    assert spec.label == "human:ann_lee" and spec.is_human and spec.kind == "human"
    with pytest.raises(InputError, match="is a person"):
        parse_judge("human:ann")
    with pytest.raises(InputError, match="voter name"):
        human_judge("<script>")
    with pytest.raises(ValueError, match="human judge"):
        JudgeSpec(model=ModelConfig(spec="human:ann"))


def test_pairs_are_blind_random_and_never_offered_twice(store: Store) -> None:
    run_id = _run(store)  # good and same give identical answers: never offered
    pairs = open_pairs(store, run_id, "ann")
    assert len(pairs) == 8  # (good, bad) and (bad, same) on four cases
    assert all({p.variant_a, p.variant_b} != {"good", "same"} for p in pairs)
    shown_first = {
        next_pair(store, run_id, "ann", random.Random(s)).variant_a  # type: ignore[union-attr]
        for s in range(20)
    }
    assert len(shown_first) >= 2  # the order is random
    pair = pairs[0]
    battle = cast_vote(store, pair.model_copy(), "ann", "model_b")
    assert battle.judge.label == "human:ann" and battle.winner == "model_b"
    assert battle.verdict_ab is None and battle.variant_a == pair.variant_a
    from arena.votes._ballots import swapped

    with pytest.raises(InputError, match="already voted"):
        cast_vote(store, swapped(pair), "ann", "model_a")  # the same pair, shown the other way
    assert len(open_pairs(store, run_id, "ann")) == 7
    assert len(open_pairs(store, run_id, "bob")) == 8  # votes are per person
    with pytest.raises(InputError, match="a vote must be one of"):
        cast_vote(store, pairs[1], "ann", "A")
    cast_vote(store, pairs[1], "ann", "tie (bothbad)")
    assert vote_counts(store, run_id) == {"human:ann": 2}


def test_human_votes_are_rated_on_their_own_and_never_the_default_judge(store: Store) -> None:
    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judge_run(store, run_id, _spec(), progress=False)
    assert _vote_all(store, run_id, "ann") == 8
    key = human_judge("ann").key
    board = build_leaderboard(
        store, run_id, judge_key=key, options=RatingOptions(bootstrap_rounds=50)
    )
    assert board.judge == "human:ann"
    ratings = {e.variant: e.rating or 0.0 for e in board.entries}
    assert None not in {e.rating for e in board.entries}
    assert ratings["good"] > ratings["bad"] and ratings["same"] > ratings["bad"]
    assert {e.variant: e.battles for e in board.entries} == {"good": 4, "bad": 8, "same": 4}
    # The newest battles are the votes, but the default judge stays the model judge.
    assert select_battles(store, run_id, None)[0].judge.key == _spec().key
    assert (
        build_leaderboard(store, run_id, options=RatingOptions(bootstrap_rounds=20)).judge
        == _spec().label
    )


def test_arena_health_reports_agreement_with_stored_votes_and_a_vote_file(
    store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judge_run(store, run_id, _spec(), progress=False)
    _vote_all(store, run_id, "ann")  # agrees with the judge on all 8 voted pairs
    _vote_all(store, run_id, "bob", prefer="250")  # disagrees on all 8
    votes = tmp_path / "votes.jsonl"
    votes.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {
                    "question_id": "C-0",
                    "model_a": "good",
                    "model_b": "same",
                    "winner": "tie",
                    "judge": "human:cy",
                },
                {
                    "question_id": "C-1",
                    "model_a": "bad",
                    "model_b": "good",
                    "winner": "model_b",
                    "judge": "human:cy",
                    "anony": True,
                },
            ]
        )
    )
    assert main(["health", str(run_id), "--human", str(votes), "--json", "--db", db_url]) == 0
    doc = json.loads(capsys.readouterr().out)
    judges = {h["judge"]: h for h in doc["health"]}
    assert judges["human:ann"]["human"] and judges["human:ann"]["accuracy"]["accuracy"] == 1.0
    (row,) = doc["human_agreement"]  # one model judge, against every human vote
    assert row["judge"] == _spec().key
    # 8 agreeing (ann) + 8 disagreeing (bob) + 2 agreeing (cy: a tie, a win).
    assert (row["n"], row["percent"]) == (18, pytest.approx(10 / 18))
    assert (row["without_ties"]["n"], row["without_ties"]["percent"]) == (17, pytest.approx(9 / 17))
    assert doc["human_votes"] == 18 and doc["humans"] == ["human:ann", "human:bob", "human:cy"]
    # ann-bob disagree on 8 pairs; on C-1 (bad, good) cy agrees with ann, not with bob.
    assert (doc["human_human"]["n"], doc["human_human"]["percent"]) == (10, pytest.approx(0.1))
    assert doc["judge_agreement"] == []  # people are not model judges
    assert main(["health", str(run_id), "--human", str(votes), "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert f"agreement {_spec().key} (fake:judge/text) vs humans: with ties 56% of 18" in out
    assert "18 human votes by 3 people" in out

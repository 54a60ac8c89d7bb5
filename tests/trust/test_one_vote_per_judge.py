"""A vote file keeps one vote per judge and pair: a person's later vote on a pair (in either
seat order) replaces their earlier one, and the replacement is counted on stderr; rows that
name no judge are of people nobody named, so each counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.records.log_rows import WinnerCounts
from arena.trust import load_votes
from tests.trust.test_agreement import vote, write

pytestmark = pytest.mark.unit

WINNERS = ("model_a", "model_b")


def test_a_later_vote_of_one_person_on_a_pair_replaces_the_earlier(tmp_path: Path) -> None:
    path = write(
        tmp_path / "votes.jsonl",
        [
            vote("q1", "x", "y", "model_a", "human:ann"),
            vote("q1", "y", "x", "model_a", "human:ann"),  # changed her mind, seats swapped
            vote("q1", "x", "y", "model_a", "human:bob"),
            vote("q1", "x", "y", "model_b", "human:ann", turn=2),  # another turn: another pair
        ],
    )
    counts = WinnerCounts()
    votes = load_votes(path, counts=counts)
    assert [(v.judge, v.model_a, v.winner, v.turn) for v in votes] == [
        ("human:ann", "y", "model_a", 1),
        ("human:bob", "x", "model_a", 1),
        ("human:ann", "x", "model_b", 2),
    ]
    assert counts.replaced == 1
    assert "1 earlier vote of a judge on a pair replaced by their later vote" in counts.summary()
    rows = [{"question_id": "q1", "model_a": "x", "model_b": "y", "winner": w} for w in WINNERS]
    anonymous = tmp_path / "anonymous.jsonl"  # no judge named: nobody can tell two people apart
    anonymous.write_text("\n".join(json.dumps(r) for r in rows))
    assert [v.winner for v in load_votes(anonymous, default_judge="human")] == list(WINNERS)


def test_arena_agree_counts_the_person_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    llm = write(tmp_path / "llm.jsonl", [vote("q1", "x", "y", "model_a", "gpt")])
    human = write(
        tmp_path / "human.jsonl",
        [vote("q1", "x", "y", "model_b", "human:a"), vote("q1", "x", "y", "model_a", "human:a")],
    )
    assert main(["agree", str(llm), str(human), "--json"]) == 0
    captured = capsys.readouterr()
    (row,) = json.loads(captured.out)
    assert (row["agree_with_ties"], row["with_ties"]["n"]) == (1, 1)
    assert "replaced by their later vote" in captured.err

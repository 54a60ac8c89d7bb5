"""MT-Bench-style agreement between judges of battle logs, on hand-built logs whose agreement
is known: swapped pairs, ties, several votes per pair, per-turn splits, human-human."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.errors import InputError
from arena.trust import Vote, cross_agreement, judge_kind, load_votes, log_agreement
from arena.trust._agreement import cross_pairs, within_pairs

pytestmark = pytest.mark.unit


def vote(q: str, a: str, b: str, winner: str, judge: str, turn: int = 1) -> Vote:
    return Vote(question_id=q, model_a=a, model_b=b, winner=winner, judge=judge, turn=turn)


def write(path: Path, votes: list[Vote], **extra: Any) -> Path:
    path.write_text("\n".join(json.dumps({**v.model_dump(), **extra}) for v in votes))
    return path


def test_a_swapped_pair_is_turned_round() -> None:
    left = [vote("q1", "x", "y", "model_a", "gpt")]
    right = [vote("q1", "y", "x", "model_b", "human:ann")]  # the same judgement, seats swapped
    assert cross_pairs(left, right) == [("model_a", "model_a")]
    (row,) = cross_agreement(left, right, "gpt", "human")
    assert row.with_ties.percent == 1.0 and row.agree_with_ties == 1


def test_ties_agree_with_ties_and_drop_out_without_ties() -> None:
    left = [
        vote("q1", "x", "y", "tie", "gpt"),
        vote("q2", "x", "y", "model_a", "gpt"),
        vote("q3", "x", "y", "model_b", "gpt"),
        vote("q4", "x", "y", "tie", "gpt"),
    ]
    right = [
        vote("q1", "x", "y", "tie (bothbad)", "h:1"),
        vote("q2", "x", "y", "model_a", "h:1"),
        vote("q3", "x", "y", "model_a", "h:1"),
        vote("q4", "x", "y", "model_a", "h:1"),
    ]
    (row,) = cross_agreement(left, right, "gpt", "h")
    # With ties: q1 (tie = bothbad tie) and q2 agree, q3 and q4 do not: 2 of 4.
    assert (row.agree_with_ties, row.with_ties.n) == (2, 4)
    # Without ties: q1 and q4 are left out; q2 agrees, q3 does not: 1 of 2.
    assert (row.agree_without_ties, row.without_ties.n) == (1, 2)
    assert row.without_ties.percent == 0.5
    # Kappa over (tie, a, b, tie) vs (tie, a, a, a): po = 0.5, pe = (2*1 + 1*3 + 1*0) / 16.
    assert row.with_ties.kappa == pytest.approx((0.5 - 5 / 16) / (1 - 5 / 16))


def test_every_vote_meets_every_vote_of_the_other_judge() -> None:
    llm = [vote("q1", "x", "y", "model_a", "gpt")]
    humans = [
        vote("q1", "x", "y", "model_a", "human:ann"),
        vote("q1", "y", "x", "model_a", "human:bob"),  # y wins: disagrees
        vote("q1", "x", "y", "model_a", "human:cy"),
        vote("q2", "x", "y", "model_a", "human:ann"),
    ]  # no LLM vote on q2
    (row,) = cross_agreement(llm, humans, "gpt", "human")
    assert (row.agree_with_ties, row.with_ties.n) == (2, 3)
    # Within the humans: ann-bob no, ann-cy yes, bob-cy no on q1; q2 has a single vote.
    assert within_pairs(humans) == [
        ("model_a", "model_b"),
        ("model_a", "model_a"),
        ("model_b", "model_a"),
    ]


def test_votes_of_one_judge_are_never_compared_with_themselves() -> None:
    same = [
        vote("q1", "x", "y", "model_a", "human:ann"),
        vote("q1", "x", "y", "model_b", "human:ann"),
    ]
    assert within_pairs(same) == []
    assert cross_pairs(same, same) == []


def test_turns_are_split_and_summed() -> None:
    left = [
        vote("q1", "x", "y", "model_a", "gpt", turn=1),
        vote("q1", "x", "y", "model_a", "gpt", turn=2),
        vote("q2", "x", "y", "model_b", "gpt", turn=2),
    ]
    right = [
        vote("q1", "x", "y", "model_a", "human:a", turn=1),
        vote("q1", "x", "y", "model_b", "human:a", turn=2),
        vote("q2", "x", "y", "model_b", "human:a", turn=2),
    ]
    rows = {r.turn: r for r in cross_agreement(left, right, "gpt", "human")}
    assert set(rows) == {1, 2, None}
    assert (rows[1].agree_with_ties, rows[1].with_ties.n) == (1, 1)
    assert (rows[2].agree_with_ties, rows[2].with_ties.n) == (1, 2)
    assert (rows[None].agree_with_ties, rows[None].with_ties.n) == (2, 3)


@pytest.mark.parametrize(
    ("judge", "kind"),
    [
        ("human:ann", "human"),
        ("expert_12", "expert"),
        ("author_3", "author"),
        ("5453da59f173", "5453da59f173"),
        ("gpt-4/pair-v2", "gpt-4/pair-v2"),
        ("local:qwen/logprobs", "local:qwen/logprobs"),
        ("expert_x", "expert_x"),
    ],
)
def test_judge_kinds(judge: str, kind: str) -> None:
    assert judge_kind(judge) == kind


def test_one_log_compares_groups_and_people_within_a_group(tmp_path: Path) -> None:
    votes = [
        vote("q1", "x", "y", "model_a", "gpt"),
        vote("q1", "x", "y", "model_a", "human:a"),
        vote("q1", "y", "x", "model_b", "human:b"),
        vote("q2", "x", "y", "tie", "gpt"),
        vote("q2", "x", "y", "model_b", "human:a"),
    ]
    rows = log_agreement(load_votes(write(tmp_path / "log.jsonl", votes)))
    assert [(r.left, r.right) for r in rows] == [("gpt", "human"), ("human", "human")]
    gpt, people = rows
    assert (gpt.agree_with_ties, gpt.with_ties.n) == (2, 3)
    assert (gpt.agree_without_ties, gpt.without_ties.n) == (2, 2)
    assert (people.agree_with_ties, people.with_ties.n) == (1, 1)


def test_arena_agree_on_two_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from arena.cli import main

    llm = write(
        tmp_path / "llm.jsonl",
        [
            vote("q1", "x", "y", "model_a", "gpt"),
            vote("q2", "x", "y", "model_b", "gpt"),
            vote("q3", "y", "x", "tie", "gpt"),
        ],
        anony=True,
    )
    human = write(
        tmp_path / "human.jsonl",
        [
            vote("q1", "y", "x", "model_b", "human:a"),
            vote("q2", "x", "y", "model_a", "human:a"),
            vote("q3", "x", "y", "tie", "human:b"),
        ],
    )
    assert main(["agree", str(llm), str(human), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["left"], row["right"], row["turn"]) == ("gpt", "human", 1)
    assert (row["agree_with_ties"], row["with_ties"]["n"]) == (2, 3)
    assert (row["agree_without_ties"], row["without_ties"]["n"]) == (1, 2)
    assert main(["agree", str(llm), str(human)]) == 0
    out = capsys.readouterr().out
    assert "gpt vs human" in out and "2/3 (67%)" in out and "1/2 (50%)" in out
    lone = write(tmp_path / "lone.jsonl", [vote("q1", "x", "y", "model_a", "gpt")])
    assert main(["agree", str(lone)]) == 2
    assert "no battle was judged by two different judges" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '{"question_id": "q", "model_a": "x", "model_b": "y", "winner": "A", "judge": "j"}',
            "line 1, field winner",
        ),
        (
            '{"question_id": "q", "model_a": "x", "model_b": "y", "winner": "tie"}',
            "line 1, field judge",
        ),
        (
            '{"model_a": "x", "model_b": "y", "winner": "tie", "judge": "j"}',
            "line 1, field question_id",
        ),
        (
            '{"question_id": "q", "model_a": "x", "model_b": "y", "winner": "tie", "judge": "j", '
            '"turn": "2"}',
            "line 1, field turn",
        ),
        ("\n\n{oops", "line 3"),
        (
            '{"question_id": "q", "model_a": "x", "model_b": "x", "winner": "tie", "judge": "j"}',
            "no votes",
        ),
    ],
)
def test_bad_vote_files_name_the_line_and_field(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "votes.jsonl"
    path.write_text(content)
    with pytest.raises(InputError, match=message) as info:
        load_votes(path)
    assert str(path) in str(info.value)


def test_older_human_label_files_and_mt_bench_judges_read_as_votes(tmp_path: Path) -> None:
    path = tmp_path / "labels.json"
    path.write_text(
        json.dumps(
            [
                {
                    "case_id": "C-1",
                    "variant_a": "x",
                    "variant_b": "y",
                    "winner": "model_b",
                    "repeat": 1,
                },
                {
                    "question_id": 81,
                    "model_a": "x",
                    "model_b": "y",
                    "winner": "tie",
                    "judge": ["gpt-4", "pair-v2"],
                    "turn": 2,
                },
            ]
        )
    )
    first, second = load_votes(path, default_judge="human")
    assert (first.question_id, first.repeat, first.judge, first.winner) == (
        "C-1",
        1,
        "human",
        "model_b",
    )
    assert (second.question_id, second.judge, second.turn) == ("81", "gpt-4/pair-v2", 2)

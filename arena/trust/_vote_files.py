"""Votes: judged battles as Chatbot-Arena-style rows, read from logs or from a run.

A vote file is JSONL (or a JSON list) of Chatbot Arena rows (``question_id``, ``model_a``,
``model_b``, ``winner``, ``judge``, optional ``turn`` and ``repeat``; other fields are
ignored), read by the battle logs' own row reader (:mod:`arena.records.log_rows`): FastChat's
MT-Bench judgment files (``model_1``/``model_2``, ``g1_winner``/``g2_winner``, or
``tie (inconsistent)``) are read as FastChat reads them, an inconsistent verdict as a tie and
a row with winner ``error`` left out, both counted. Human label files of the older form
(``case_id``, ``variant_a``, ``variant_b``, ``winner``, optional ``repeat``) are read too.

One vote per judge and pair: when a row naming its ``judge`` votes again on a pair that judge
already voted on (the same question, turn and repeat, the two models in either order), the
later row replaces the earlier one (a person who changed their mind; counted). Rows without a
``judge`` are of people nobody named, so each counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from arena.errors import InputError
from arena.inputs.files import read_json_rows
from arena.records.log_rows import WinnerCounts, arena_row
from arena.trust._agreement import AgreementRow, Vote, cross_agreement
from arena.vocabulary import ERROR, LABEL_DIRECTION, winner_from_direction
from judges._battle import Battle

#: The judge of rows without one in a ``--human`` file.
HUMANS = "human"


def judge_name(battle: Battle) -> str:
    """How a battle's judge appears in a vote: ``human:NAME`` for people, else its key."""
    return battle.judge.label if battle.judge.is_human else battle.judge.key


def battle_votes(battles: Iterable[Battle]) -> list[Vote]:
    """One vote per readable battle: its combined winner."""
    return [
        Vote(
            question_id=b.case_id,
            repeat=b.repeat,
            model_a=b.variant_a,
            model_b=b.variant_b,
            winner=b.winner,
            judge=judge_name(b),
        )
        for b in battles
        if b.winner != ERROR
    ]


def order_votes(battle: Battle) -> list[tuple[str, str, str]]:
    """Both orders as the judge saw them: (model shown first, model shown second, winner from
    that order's seats). Battles judged without the two orders (identical answers, human
    votes) give their one combined winner."""
    ab, ba = battle.verdict_ab, battle.verdict_ba
    if ab is None or ba is None:
        return (
            [] if battle.winner == ERROR else [(battle.variant_a, battle.variant_b, battle.winner)]
        )
    rows = []
    for first, second, verdict in (
        (battle.variant_a, battle.variant_b, ab),
        (battle.variant_b, battle.variant_a, ba),
    ):
        if verdict.ok and verdict.label is not None:
            rows.append((first, second, winner_from_direction(LABEL_DIRECTION[verdict.label])))
    return rows


def _rows(path: str | Path) -> list[tuple[str, Any]]:
    """(where, row) of every row: ``line N`` of a JSONL file, ``row N`` of a JSON list."""
    read = read_json_rows(path, kind="vote file")
    label = "row" if read.listed else "line"
    return [(f"{label} {number}", row) for number, row in read.rows]


def _text(row: dict[str, Any], field: str, file: str, where: str) -> str:
    value = row.get(field)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return "/".join(value)  # MT-Bench's judge: ["gpt-4", "pair-v2"]
    if isinstance(value, str | int) and not isinstance(value, bool) and str(value) != "":
        return str(value)
    raise InputError("missing or not a string", file=file, case=where, field=field)


def _int(row: dict[str, Any], field: str, default: int, file: str, where: str) -> int:
    value = row.get(field, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError("must be a whole number", file=file, case=where, field=field)
    return value


def vote_from_row(
    row: Any,
    file: str,
    where: str,
    default_judge: str | None,
    counts: WinnerCounts | None = None,
) -> Vote | None:
    """One vote from a log row, None for a row without a verdict (winner ``error``);
    InputError naming the file, the row and the field."""
    if not isinstance(row, dict):
        raise InputError("a vote must be a JSON object", file=file, case=where)
    row = arena_row(row, file, where, counts)
    legacy = "model_a" not in row and "variant_a" in row
    a, b, question = (
        ("variant_a", "variant_b", "case_id") if legacy else ("model_a", "model_b", "question_id")
    )
    winner = row["winner"]
    if winner == ERROR:
        return None
    if "judge" in row or default_judge is None:
        judge = _text(row, "judge", file, where)
    else:
        judge = default_judge
    return Vote(
        question_id=_text(row, question, file, where),
        model_a=_text(row, a, file, where),
        model_b=_text(row, b, file, where),
        winner=winner,
        judge=judge,
        turn=_int(row, "turn", 1, file, where),
        repeat=_int(row, "repeat", 0, file, where),
    )


def load_votes(
    path: str | Path, *, default_judge: str | None = None, counts: WinnerCounts | None = None
) -> list[Vote]:
    """Every vote of a log (self-battles and rows without a verdict skipped: they compare
    nothing), one per judge and pair (a later vote of a named judge on a pair replaces the
    earlier); ``counts`` tallies the inconsistent verdicts, judge errors and replaced votes.

    Raises:
        InputError: naming the file, the row and the field of the first bad row, or when
            the file holds no votes.
    """
    file = str(path)
    votes: dict[object, Vote] = {}
    for number, (where, row) in enumerate(_rows(path)):
        vote = vote_from_row(row, file, where, default_judge, counts)
        if vote is None or vote.model_a == vote.model_b:
            continue
        named = isinstance(row, dict) and "judge" in row
        key: object = _voted_pair(vote) if named else number
        if votes.pop(key, None) is not None and counts is not None:
            counts.replaced += 1  # the later vote replaces it (and takes its place in order)
        votes[key] = vote
    if not votes:
        raise InputError("no votes in the file", file=file)
    return list(votes.values())


def _voted_pair(vote: Vote) -> tuple[str, str, int, int, frozenset[str]]:
    """The judge and the pair a vote is on (models in either order)."""
    return (
        vote.judge,
        vote.question_id,
        vote.turn,
        vote.repeat,
        frozenset((vote.model_a, vote.model_b)),
    )


def human_agreement(battles: Sequence[Battle], humans: Sequence[Vote]) -> AgreementRow:
    """Agreement of a judge's battles with human votes (every turn together), MT-Bench style."""
    judge = battles[0].judge.label if battles else "judge"
    rows = cross_agreement(battle_votes(battles), humans, judge, HUMANS)
    return rows[-1]

"""People's votes: one per person and pair of results, on a real pair, written atomically.

A vote is a battle of a ``human:NAME`` judge, stored in the order its pair was shown, plus a
row of the ``votes`` table naming the pair low result id first: its uniqueness rule is what
refuses a second vote by the same person on the pair, in either order, whoever commits
first (SQLite serialises the writes; PostgreSQL makes the second insert wait for the first
and then skip it). Votes stored before that table existed are checked in the same
transaction, name by name (:func:`judges._human.same_person`), and a database that holds one
person's two votes on a pair from then reads only the older one (:func:`first_votes`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, or_, select

from arena.errors import AlreadyVoted, InputError
from arena.storage._from_rows import result_record
from arena.storage._tables import BattleRow, ResultRow, VoteRow
from arena.storage._writes import insert_ignore
from judges._human import same_person

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from judges._battle import Battle

#: The columns of the votes table's uniqueness rule.
VOTE_KEY = ("judge_key", "result_low_id", "result_high_id")


def store_vote(s: Session, battle: Battle) -> int:
    """Insert a person's vote in the open write transaction ``s``; return its battle id.

    Raises:
        InputError: naming the field, when the battle is not a person's, or its results are
            unknown, of another run, one result twice, of different cases or repeats, of one
            variant, errored, or not the results the battle names.
        AlreadyVoted: when this person (by normalised name) voted on the pair already.
    """
    if not battle.judge.is_human:
        raise InputError(
            f"a vote is a person's (judge human:NAME), not {battle.judge.label}'s",
            case=battle.case_id,
            field="judge",
        )
    a, b = _check_pair(s, battle)
    if _voted_before(s, battle):
        raise _already(battle)
    # The answers' lengths (style control) are the stored answers', whatever the caller said.
    battle = battle.model_copy(update={"len_a": len(a.output), "len_b": len(b.output)})
    row = battle_row(battle)
    s.add(row)
    s.flush()
    low, high = sorted((battle.result_a_id, battle.result_b_id))
    values = {"battle_id": row.id, "judge_key": battle.judge.key}
    values |= {"result_low_id": low, "result_high_id": high}
    if not insert_ignore(s, VoteRow, values, VOTE_KEY):
        raise _already(battle)  # a concurrent vote committed first; this one rolls back
    return row.id


def _already(battle: Battle) -> AlreadyVoted:
    return AlreadyVoted(
        f"{battle.judge.label} already voted on {battle.variant_a} vs {battle.variant_b} "
        "(in either order): the first vote stands",
        case=battle.case_id,
        field="vote",
    )


def _voted_before(s: Session, battle: Battle) -> bool:
    """Whether a stored battle on the pair (either order) is this person's vote, under the
    same judge or a name that normalises to the same person (votes stored before names were
    normalised)."""
    a, b = battle.result_a_id, battle.result_b_id
    rows = s.scalars(
        select(BattleRow).where(
            BattleRow.run_id == battle.run_id,
            or_(
                and_(BattleRow.result_a_id == a, BattleRow.result_b_id == b),
                and_(BattleRow.result_a_id == b, BattleRow.result_b_id == a),
            ),
        )
    ).all()
    name = battle.judge.label.partition(":")[2]
    return any(
        row.judge_key == battle.judge.key or same_person(_spec(row.body), name) for row in rows
    )


def _spec(body: dict[str, Any]) -> str:
    """The judge spec of a stored battle body (``human:NAME`` for a person), or ''."""
    judge = body.get("judge")
    model = judge.get("model") if isinstance(judge, dict) else None
    spec = model.get("spec") if isinstance(model, dict) else None
    return spec if isinstance(spec, str) else ""


def _check_pair(s: Session, battle: Battle) -> tuple[ResultRow, ResultRow]:
    """The battle's two results; InputError unless they are two distinct, answered results
    of its run, of the same case and repeat and of two variants, as the battle names them."""
    a = _answered(s, battle, "a")
    b = _answered(s, battle, "b")
    if a.id == b.id:
        raise InputError(
            f"a vote compares two results; result {a.id} was given twice",
            case=battle.case_id,
            field="result_b_id",
        )
    if (a.case_id, a.repeat) != (b.case_id, b.repeat):
        raise InputError(
            f"results {a.id} and {b.id} answer different cases or repeats "
            f"({a.case_id} repeat {a.repeat}, {b.case_id} repeat {b.repeat}): not a pair",
            case=battle.case_id,
            field="result_b_id",
        )
    if a.variant == b.variant or a.variant_hash == b.variant_hash:
        raise InputError(
            f"results {a.id} and {b.id} are both variant {a.variant}'s answers: not a pair",
            case=battle.case_id,
            field="result_b_id",
        )
    stated = {
        "case_id": (battle.case_id, a.case_id),
        "repeat": (battle.repeat, a.repeat),
        "variant_a": (battle.variant_a, a.variant),
        "variant_b": (battle.variant_b, b.variant),
        "hash_a": (battle.hash_a, a.variant_hash),
        "hash_b": (battle.hash_b, b.variant_hash),
    }
    for field, (said, stored) in stated.items():
        if said != stored:
            raise InputError(
                f"the vote says {said!r}, its results say {stored!r}",
                case=battle.case_id,
                field=field,
            )
    return a, b


def _answered(s: Session, battle: Battle, side: str) -> ResultRow:
    """The stored result on one side of the battle; InputError when it is not a result of
    the battle's run, or has no answer to vote on."""
    result_id = battle.result_a_id if side == "a" else battle.result_b_id
    field = f"result_{side}_id"
    row = s.get(ResultRow, result_id)
    if row is None or row.run_id != battle.run_id:
        raise InputError(
            f"no result {result_id} in run {battle.run_id}", case=battle.case_id, field=field
        )
    record = result_record(row)
    failure = (
        "it ended in an error"
        if record.error is not None
        else "its simulated user failed"
        if record.simulator_error is not None
        else None
    )
    if failure is not None:
        raise InputError(
            f"result {result_id} has no answer to vote on ({failure})",
            case=battle.case_id,
            field=field,
        )
    return row


def first_votes(battles: Iterable[Battle]) -> list[Battle]:
    """``battles`` (in order) without a person's later votes on a pair they voted on already
    (either order): what a database written before votes were single may hold."""
    seen: set[tuple[str, frozenset[int]]] = set()
    kept = []
    for battle in battles:
        if battle.judge.is_human:
            key = (battle.judge.key, frozenset((battle.result_a_id, battle.result_b_id)))
            if key in seen:
                continue
            seen.add(key)
        kept.append(battle)
    return kept


def battle_row(battle: Battle) -> BattleRow:
    """The row that stores ``battle`` (its id left to the database)."""
    return BattleRow(
        run_id=battle.run_id,
        judge_key=battle.judge.key,
        case_id=battle.case_id,
        repeat=battle.repeat,
        variant_a=battle.variant_a,
        variant_b=battle.variant_b,
        result_a_id=battle.result_a_id,
        result_b_id=battle.result_b_id,
        winner=battle.winner,
        body=battle.model_dump(mode="json", exclude={"id"}),
    )

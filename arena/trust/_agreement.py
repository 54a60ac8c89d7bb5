"""Agreement between judges on the same battles, the way MT-Bench computes it.

Votes are matched by question (and repeat), unordered model pair and turn: a vote on
``(y, x)`` is turned round to ``(x, y)`` and its winner swapped. For two judges, every vote of
one is compared with every vote of the other on the same battle (several votes per battle
count several times). Within one group of judges (e.g. human-human), every two votes on the
same battle from *different* judges are compared. Agreement is reported with ties (a tie
equals a tie, ``tie (bothbad)`` included) and without (pairs where either vote is a tie are
left out), as counts, a percentage and Cohen's kappa over the compared pairs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations, product

from pydantic import BaseModel, ConfigDict

from arena.trust._health import Agreement, cohen_kappa
from arena.vocabulary import DECISIVE, TIE, is_tie, swap_winner
from judges._human import is_human_label

BattleKey = tuple[str, int, str, str, int]


class Vote(BaseModel):
    """One judgement of one battle (Chatbot Arena's schema, plus an optional ``turn``)."""

    model_config = ConfigDict(frozen=True)

    question_id: str
    model_a: str
    model_b: str
    winner: str
    judge: str
    turn: int = 1
    repeat: int = 0

    def key(self) -> tuple[BattleKey, str]:
        """The battle (models in sorted order) and the winner seen from that order; ties of
        both kinds read ``tie``."""
        winner = TIE if is_tie(self.winner) else self.winner
        if self.model_a <= self.model_b:
            return (self.question_id, self.repeat, self.model_a, self.model_b, self.turn), winner
        return (
            (self.question_id, self.repeat, self.model_b, self.model_a, self.turn),
            swap_winner(winner),
        )


class AgreementRow(BaseModel):
    """Agreement of two judges (or within one group) over one turn, or every turn (None)."""

    left: str
    right: str
    turn: int | None
    with_ties: Agreement
    without_ties: Agreement
    agree_with_ties: int
    agree_without_ties: int


def judge_kind(judge: str) -> str:
    """The group a judge belongs to: ``human`` for ``human:NAME``; MT-Bench's ``expert_3``
    and ``author_0`` are ``expert`` and ``author``; any other judge is its own group."""
    if is_human_label(judge):
        return "human"
    stem, _, tail = judge.rpartition("_")
    if stem in ("expert", "author") and tail.isdigit():
        return stem
    return judge


def _table(votes: Iterable[Vote]) -> dict[BattleKey, list[tuple[str, str]]]:
    table: dict[BattleKey, list[tuple[str, str]]] = defaultdict(list)
    for vote in votes:
        key, winner = vote.key()
        table[key].append((vote.judge, winner))
    return table


def _stats(pairs: list[tuple[str, str]]) -> tuple[Agreement, Agreement, int, int]:
    decisive = [(x, y) for x, y in pairs if x in DECISIVE and y in DECISIVE]
    with_ties = cohen_kappa([x for x, _ in pairs], [y for _, y in pairs])
    without = cohen_kappa([x for x, _ in decisive], [y for _, y in decisive])
    return (
        with_ties,
        without,
        sum(x == y for x, y in pairs),
        sum(x == y for x, y in decisive),
    )


def _row(left: str, right: str, turn: int | None, pairs: list[tuple[str, str]]) -> AgreementRow:
    with_ties, without, agree, agree_decisive = _stats(pairs)
    return AgreementRow(
        left=left,
        right=right,
        turn=turn,
        with_ties=with_ties,
        without_ties=without,
        agree_with_ties=agree,
        agree_without_ties=agree_decisive,
    )


def _turns(keys: Iterable[BattleKey]) -> list[int | None]:
    turns = sorted({key[4] for key in keys})
    return [*turns, None] if len(turns) > 1 else [turns[0] if turns else 1]


def cross_pairs(
    left: Sequence[Vote], right: Sequence[Vote], turn: int | None = None
) -> list[tuple[str, str]]:
    """(left winner, right winner) for every vote of ``left`` against every vote of ``right``
    on the same battle (and turn, unless None); two votes of the same judge are not
    compared."""
    table_l, table_r = _table(left), _table(right)
    pairs = []
    for key, votes_l in table_l.items():
        if turn is not None and key[4] != turn:
            continue
        for (judge_l, x), (judge_r, y) in product(votes_l, table_r.get(key, [])):
            if judge_l != judge_r:
                pairs.append((x, y))
    return pairs


def within_pairs(votes: Sequence[Vote], turn: int | None = None) -> list[tuple[str, str]]:
    """(first winner, second winner) for every two votes on the same battle (and turn) from
    different judges, in the order the votes come."""
    pairs = []
    for key, found in _table(votes).items():
        if turn is not None and key[4] != turn:
            continue
        for (judge_1, x), (judge_2, y) in combinations(found, 2):
            if judge_1 != judge_2:
                pairs.append((x, y))
    return pairs


def cross_agreement(
    left: Sequence[Vote], right: Sequence[Vote], left_name: str, right_name: str
) -> list[AgreementRow]:
    """Agreement of two groups of votes: one row per turn, plus every turn together."""
    keys = {v.key()[0] for v in left} & {v.key()[0] for v in right}
    return [
        _row(left_name, right_name, turn, cross_pairs(left, right, turn)) for turn in _turns(keys)
    ]


def within_agreement(votes: Sequence[Vote], name: str) -> list[AgreementRow]:
    """Agreement between the different judges of one group: one row per turn, plus all."""
    keys = {v.key()[0] for v in votes}
    return [_row(name, name, turn, within_pairs(votes, turn)) for turn in _turns(keys)]


def by_kind(votes: Iterable[Vote]) -> dict[str, list[Vote]]:
    """Votes grouped by :func:`judge_kind`, in order of first appearance."""
    groups: dict[str, list[Vote]] = {}
    for vote in votes:
        groups.setdefault(judge_kind(vote.judge), []).append(vote)
    return groups


def log_agreement(
    first: Sequence[Vote], second: Sequence[Vote] | None = None
) -> list[AgreementRow]:
    """``arena agree``: with two logs, every judge group of the first against every group of
    the second; with one, every two groups of it against each other, and the judges within
    each group that holds several (e.g. human-human). Pairs with nothing in common are left
    out."""
    rows: list[AgreementRow] = []
    groups_1 = by_kind(first)
    if second is not None:
        groups_2 = by_kind(second)
        for (name_1, votes_1), (name_2, votes_2) in product(groups_1.items(), groups_2.items()):
            rows += cross_agreement(votes_1, votes_2, name_1, name_2)
    else:
        for (name_1, votes_1), (name_2, votes_2) in combinations(groups_1.items(), 2):
            rows += cross_agreement(votes_1, votes_2, name_1, name_2)
        for name, votes in groups_1.items():
            if len({v.judge for v in votes}) > 1:
                rows += within_agreement(votes, name)
    return [r for r in rows if r.with_ties.n > 0]

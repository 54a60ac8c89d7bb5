"""Battle and verdict-cache persistence (mixed into Store)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import delete, select

from arena.records.results import utcnow
from arena.secrets import scrub
from arena.storage._results import scrubbed
from arena.storage._tables import BattleRow, VerdictCacheRow
from arena.storage._votes import battle_row, first_votes, store_vote
from arena.storage._writes import upsert
from arena.vocabulary import ERROR

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from judges._battle import Battle
    from judges._types import Verdict

T = TypeVar("T")

#: Verdict fields a judge mode kept in the core types before modes owned their details
#: (``Verdict.details``); rows written then are read with each one moved into the details.
LEGACY_DETAIL_FIELDS = ("checklist",)


def verdict_value(value: dict[str, Any]) -> dict[str, Any]:
    """A stored verdict as today's :class:`~judges._types.Verdict` reads it: an old row's mode
    fields (:data:`LEGACY_DETAIL_FIELDS`) moved into ``details`` (dropped when empty)."""
    if not any(name in value for name in LEGACY_DETAIL_FIELDS):
        return value
    value = dict(value)
    details = dict(value.get("details") or {})
    for name in LEGACY_DETAIL_FIELDS:
        old = value.pop(name, None)
        if old is not None:
            details.setdefault(name, old)
    if details:
        value["details"] = details
    return value


def battle_body(body: dict[str, Any]) -> dict[str, Any]:
    """A stored battle's body with both verdicts read by :func:`verdict_value`."""
    out = dict(body)
    for order in ("verdict_ab", "verdict_ba"):
        if isinstance(out.get(order), dict):
            out[order] = verdict_value(out[order])
    return out


class BattleStoreMixin:
    """Stores battles per run and judge, and caches verdicts by case, outputs, judge, order."""

    def session(self) -> Session:
        raise NotImplementedError

    def _write(self, work: Callable[[Session], T]) -> T:
        raise NotImplementedError

    def save_battle(self, battle: Battle) -> int:
        """Store a battle (same run, judge and results replace the stored one); returns its id.

        A stored decided battle is never replaced by an error (a concurrent or later judge that
        failed loses nothing); otherwise the old row is replaced atomically. A person's battle
        (a vote) is stored by :meth:`save_vote`'s rules instead: never replaced.
        """
        battle = scrubbed(battle)  # a judge's rationale may echo a key: never stored
        if battle.judge.is_human:
            return self.save_vote(battle)

        def work(s: Session) -> int:
            old = s.scalar(
                select(BattleRow)
                .where(
                    BattleRow.run_id == battle.run_id,
                    BattleRow.judge_key == battle.judge.key,
                    BattleRow.result_a_id == battle.result_a_id,
                    BattleRow.result_b_id == battle.result_b_id,
                )
                .with_for_update()
            )
            if old is not None:
                if battle.winner == ERROR and old.winner != ERROR:
                    return old.id
                s.execute(delete(BattleRow).where(BattleRow.id == old.id))
            row = battle_row(battle)
            s.add(row)
            s.flush()
            return row.id

        return self._write(work)

    def save_vote(self, battle: Battle) -> int:
        """Store a person's vote (a battle of a ``human:NAME`` judge) in one transaction;
        returns its id. At most one vote per person and pair of results, in either order,
        however many processes write at once.

        Raises:
            InputError: naming the field, unless the vote is on two distinct answered results
                of its run, of the same case and repeat, of two variants.
            AlreadyVoted: the person voted on the pair already (nothing is written).
        """
        return self._write(lambda s: store_vote(s, battle))

    def battles(self, run_id: int | None = None, judge_key: str | None = None) -> list[Battle]:
        """Stored battles, optionally of one run and one judge, oldest first (a person's later
        vote on a pair they voted on already, which an older database may hold, is left
        out)."""
        from judges._battle import Battle

        query = select(BattleRow).order_by(BattleRow.id)
        if run_id is not None:
            query = query.where(BattleRow.run_id == run_id)
        if judge_key is not None:
            query = query.where(BattleRow.judge_key == judge_key)
        with self.session() as s:
            return first_votes(
                Battle.model_validate({**battle_body(row.body), "id": row.id})
                for row in s.scalars(query).all()
            )

    def judge_keys(self, run_id: int) -> list[tuple[str, str, int]]:
        """(judge key, judge label, battles) for every judge used on a run, newest first."""
        seen: dict[str, tuple[str, str, int]] = {}
        for battle in reversed(self.battles(run_id)):
            key = battle.judge.key
            label, count = battle.judge.label, seen.get(key, ("", "", 0))[2]
            seen[key] = (key, label, count + 1)
        return list(seen.values())

    def get_verdict(self, key: str) -> Verdict | None:
        """A cached verdict."""
        from judges._types import Verdict

        with self.session() as s:
            row = s.get(VerdictCacheRow, key)
            return None if row is None else Verdict.model_validate(verdict_value(row.value))

    def put_verdict(self, key: str, verdict: Verdict) -> None:
        """Cache a verdict (only successful ones are worth caching); the latest one wins."""
        value: dict[str, Any] = scrub(verdict.model_dump(mode="json"))
        values = {
            "key": key,
            "judge_key": verdict.judge.key,
            "value": value,
            "created_at": utcnow(),
        }
        self._write(lambda s: upsert(s, VerdictCacheRow, values, ["key"]))

"""Mutation passes (``arena mutate``) kept for ``arena health`` and the app (mixed into Store)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel
from sqlalchemy import select

from arena.storage._tables import MutationRow

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

T = TypeVar("T")


class StoredMutation(BaseModel):
    """A stored mutation pass: when, on which dataset and variant, its score, its report."""

    id: int
    dataset: str
    variant: str
    score: float
    report: dict[str, Any]
    created_at: datetime


class MutationStoreMixin:
    """Mutation reports, newest last."""

    def session(self) -> Session:
        raise NotImplementedError

    def _write(self, work: Callable[[Session], T]) -> T:
        raise NotImplementedError

    def save_mutation(
        self, dataset: str, variant: str, score: float, report: dict[str, Any]
    ) -> int:
        """Store a mutation pass's report (its ``--json`` document); returns its id."""

        def work(s: Session) -> int:
            row = MutationRow(dataset=dataset, variant=variant, score=score, body=report)
            s.add(row)
            s.flush()
            return row.id

        return self._write(work)

    def latest_mutation(self, dataset: str | None = None) -> StoredMutation | None:
        """The newest stored mutation pass (of ``dataset``, a name, when given), or None."""
        query = select(MutationRow).order_by(MutationRow.id.desc()).limit(1)
        if dataset is not None:
            query = query.where(MutationRow.dataset == dataset)
        with self.session() as s:
            row = s.scalar(query)
            if row is None:
                return None
            return StoredMutation(
                id=row.id, dataset=row.dataset, variant=row.variant, score=row.score,
                report=row.body, created_at=row.created_at,
            )  # fmt: skip

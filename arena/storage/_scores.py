"""Score and baseline persistence (mixed into Store)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import delete, select

from arena.records.results import utcnow
from arena.storage._tables import BaselineRow, ScoreRow
from arena.storage._writes import upsert

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from arena.scoring import Baseline, CaseScore

T = TypeVar("T")


class ScoreStoreMixin:
    """Golden scores per run and grader; named baselines."""

    def session(self) -> Session:
        raise NotImplementedError

    def _write(self, work: Callable[[Session], T]) -> T:
        raise NotImplementedError

    def save_scores(self, run_id: int, grader: str, scores: list[CaseScore]) -> None:
        """Replace a run's scores from this grader (atomically)."""

        def work(s: Session) -> None:
            s.execute(delete(ScoreRow).where(ScoreRow.run_id == run_id, ScoreRow.grader == grader))
            for score in scores:
                s.add(
                    ScoreRow(
                        run_id=run_id,
                        result_id=score.result_id,
                        grader=grader,
                        body=score.model_dump(mode="json"),
                    )
                )

        self._write(work)

    def scores(self, run_id: int, grader: str | None = None) -> tuple[str, list[CaseScore]]:
        """A run's stored scores from ``grader`` (default: the most recently stored grader)."""
        from arena.scoring import CaseScore

        with self.session() as s:
            if grader is None:
                grader = s.scalar(
                    select(ScoreRow.grader)
                    .where(ScoreRow.run_id == run_id)
                    .order_by(ScoreRow.id.desc())
                    .limit(1)
                )
            if grader is None:
                return "", []
            rows = s.scalars(
                select(ScoreRow)
                .where(ScoreRow.run_id == run_id, ScoreRow.grader == grader)
                .order_by(ScoreRow.id)
            ).all()
            return grader, [CaseScore.model_validate(r.body) for r in rows]

    def save_baseline(self, baseline: Baseline) -> None:
        """Store (or replace) a named baseline."""
        values = {
            "name": baseline.name,
            "body": baseline.model_dump(mode="json"),
            "updated_at": utcnow(),
        }
        self._write(lambda s: upsert(s, BaselineRow, values, ["name"]))

    def baseline(self, name: str) -> Baseline | None:
        """A named baseline, or None."""
        from arena.scoring import Baseline

        with self.session() as s:
            row = s.scalar(select(BaselineRow).where(BaselineRow.name == name))
            return None if row is None else Baseline.model_validate(row.body)

    def baselines(self) -> list[Baseline]:
        """Every stored baseline."""
        from arena.scoring import Baseline

        with self.session() as s:
            return [
                Baseline.model_validate(r.body)
                for r in s.scalars(select(BaselineRow).order_by(BaselineRow.name)).all()
            ]

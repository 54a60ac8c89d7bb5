"""Score and baseline persistence (mixed into Store)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, select

from arena.records.results import utcnow
from arena.storage._tables import BaselineRow, ScoreRow
from arena.storage._writes import upsert

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from arena.scoring import Baseline, CaseScore

T = TypeVar("T")


class ScoresReplaced(BaseModel):
    """What saving a run's scores replaced: how many earlier scores of the grader, how many
    of them changed, and the older scoring rules' versions that had made them."""

    model_config = ConfigDict(frozen=True)

    replaced: int = 0
    changed: int = 0
    older_rules: list[int] = Field(default_factory=list)

    def message(self) -> str | None:
        """One line for the user (None when nothing was replaced)."""
        if not self.replaced:
            return None
        why = (
            f": they were graded by older rules ({', '.join(map(str, self.older_rules))})"
            if self.older_rules
            else ""
        )
        return f"{self.replaced} stored scores replaced, {self.changed} of them changed{why}"


class ScoreStoreMixin:
    """Golden scores per run and grader; named baselines."""

    def session(self) -> Session:
        raise NotImplementedError

    def _write(self, work: Callable[[Session], T]) -> T:
        raise NotImplementedError

    def save_scores(self, run_id: int, grader: str, scores: list[CaseScore]) -> ScoresReplaced:
        """Replace a run's scores from this grader (atomically), recording the scoring rules'
        version (:data:`arena.scoring.RULES_VERSION`); returns what was replaced."""
        from arena.scoring import RULES_VERSION

        def work(s: Session) -> ScoresReplaced:
            mine = (ScoreRow.run_id == run_id, ScoreRow.grader == grader)
            before = {r.result_id: r for r in s.scalars(select(ScoreRow).where(*mine)).all()}
            s.execute(delete(ScoreRow).where(*mine))
            changed = 0
            for score in scores:
                body = score.model_dump(mode="json")
                old = None if score.result_id is None else before.get(score.result_id)
                if old is not None and old.body != body:
                    changed += 1
                s.add(
                    ScoreRow(
                        run_id=run_id,
                        result_id=score.result_id,
                        grader=grader,
                        body=body,
                        rules_version=RULES_VERSION,
                    )
                )
            return ScoresReplaced(
                replaced=len(before),
                changed=changed,
                older_rules=sorted({r.rules_version for r in before.values()} - {RULES_VERSION}),
            )

        return self._write(work)

    def score_rules(self, run_id: int, grader: str) -> int | None:
        """The oldest scoring rules' version among a run's stored scores from ``grader``
        (0: stored before rules were versioned); None when it has none."""
        with self.session() as s:
            return s.scalar(
                select(func.min(ScoreRow.rules_version)).where(
                    ScoreRow.run_id == run_id, ScoreRow.grader == grader
                )
            )

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

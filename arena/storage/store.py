"""The Store: every read and write of runs, results, trajectories and the response cache."""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from arena.golden import GoldenDataset, case_hash, dataset_hash
from arena.records import RunInfo, RunResult, TrajectoryStep, utcnow
from arena.storage.battles import BattleStoreMixin
from arena.storage.engine import make_engine, resolve_url
from arena.storage.scores import ScoreStoreMixin
from arena.storage.tables import (
    Base,
    CaseRow,
    DatasetRow,
    ResponseCacheRow,
    ResultRow,
    RunRow,
    StepRow,
    VariantRow,
)
from arena.variants import Variant

ResultKey = tuple[str, str, int]


class Store(BattleStoreMixin, ScoreStoreMixin):
    """A database of arena runs. Each write commits at once, so a killed run loses nothing."""

    def __init__(self, url: str | None = None) -> None:
        self.url = resolve_url(url)
        self.engine = make_engine(self.url)
        Base.metadata.create_all(self.engine)
        self._lock = threading.RLock()

    def session(self) -> Session:
        """A new ORM session (internal to the storage package and its helpers)."""
        return Session(self.engine, expire_on_commit=False)

    # -- datasets and variants -------------------------------------------------------------
    def ensure_dataset(self, dataset: GoldenDataset, path: str = "") -> int:
        """Store the dataset and its cases once (by content hash); return its id."""
        digest = dataset_hash(dataset)
        with self._lock, self.session() as s:
            row = s.scalar(select(DatasetRow).where(DatasetRow.hash == digest))
            if row is not None:
                return row.id
            row = DatasetRow(name=dataset.name, version=dataset.version, hash=digest, path=path,
                             body=dataset.model_dump(mode="json", exclude={"test_cases"}))
            s.add(row)
            s.flush()
            for case in dataset.test_cases:
                s.add(CaseRow(dataset_id=row.id, case_id=case.id, case_hash=case_hash(case),
                              category=case.category.value, tier=case.tier.value,
                              body=case.model_dump(mode="json")))
            s.commit()
            return row.id

    def load_dataset(self, dataset_id: int) -> GoldenDataset:
        """Rebuild a stored dataset."""
        with self.session() as s:
            row = s.get(DatasetRow, dataset_id)
            if row is None:
                raise KeyError(f"no dataset {dataset_id}")
            cases = s.scalars(select(CaseRow).where(CaseRow.dataset_id == dataset_id)
                              .order_by(CaseRow.id)).all()
            return GoldenDataset.model_validate({**row.body,
                                                 "test_cases": [c.body for c in cases]})

    def ensure_variant(self, variant: Variant) -> None:
        """Store the variant's resolved config under its name and version hash."""
        with self._lock, self.session() as s:
            exists = s.scalar(select(VariantRow.id).where(
                VariantRow.name == variant.name, VariantRow.hash == variant.version_hash))
            if exists is None:
                s.add(VariantRow(name=variant.name, hash=variant.version_hash,
                                 description=variant.description,
                                 config=variant.model_dump(mode="json")))
                s.commit()

    def variants(self) -> list[Variant]:
        """Every stored variant version, oldest first."""
        with self.session() as s:
            rows = s.scalars(select(VariantRow).order_by(VariantRow.id)).all()
            return [Variant.model_validate(r.config) for r in rows]

    # -- runs --------------------------------------------------------------------------------
    def open_run(self, key: str, dataset_id: int, config: dict[str, Any]) -> tuple[int, bool]:
        """The run with this key (resumed) or a new one; returns (run id, resumed)."""
        with self._lock, self.session() as s:
            row = s.scalar(select(RunRow).where(RunRow.key == key))
            if row is not None:
                row.status = "running"
                s.commit()
                return row.id, True
            row = RunRow(key=key, dataset_id=dataset_id, config=config)
            s.add(row)
            s.commit()
            return row.id, False

    def finish_run(self, run_id: int, status: str = "finished") -> None:
        """Mark a run finished (or interrupted)."""
        with self._lock, self.session() as s:
            row = s.get(RunRow, run_id)
            if row is not None:
                row.status, row.finished_at = status, utcnow()
                s.commit()

    def runs(self) -> list[RunInfo]:
        """All runs, newest first, with result and error counts."""
        with self.session() as s:
            counts = dict(s.execute(select(ResultRow.run_id, func.count())
                                    .group_by(ResultRow.run_id)).all())
            errors = dict(s.execute(select(ResultRow.run_id, func.count())
                                    .where(ResultRow.error.is_not(None))
                                    .group_by(ResultRow.run_id)).all())
            rows = s.execute(select(RunRow, DatasetRow).join(DatasetRow)
                             .order_by(RunRow.id.desc())).all()
            return [_run_info(run, ds, counts.get(run.id, 0), errors.get(run.id, 0))
                    for run, ds in rows]

    def run(self, run_id: int | None = None) -> RunInfo:
        """One run (the newest when ``run_id`` is None); KeyError if there is none."""
        runs = self.runs()
        if run_id is None:
            if not runs:
                raise KeyError("no runs stored yet: run `arena run` or `arena demo` first")
            return runs[0]
        for info in runs:
            if info.id == run_id:
                return info
        raise KeyError(f"no run with id {run_id}")

    def run_dataset(self, run_id: int) -> GoldenDataset:
        """The dataset a run used."""
        with self.session() as s:
            row = s.get(RunRow, run_id)
            if row is None:
                raise KeyError(f"no run with id {run_id}")
            dataset_id = row.dataset_id
        return self.load_dataset(dataset_id)

    # -- results -----------------------------------------------------------------------------
    def save_result(self, result: RunResult) -> int:
        """Insert (or replace) one result with its steps, committed at once."""
        with self._lock, self.session() as s:
            old = s.scalar(select(ResultRow).where(
                ResultRow.run_id == result.run_id, ResultRow.variant_hash == result.variant_hash,
                ResultRow.case_hash == result.case_hash, ResultRow.repeat == result.repeat))
            if old is not None:
                s.delete(old)
                s.flush()
            data = result.model_dump(exclude={"id", "steps"})
            row = ResultRow(**data, steps=[StepRow(**step.model_dump())
                                           for step in result.steps])
            s.add(row)
            s.commit()
            return row.id

    def results(self, run_id: int) -> list[RunResult]:
        """Every result of a run, in insertion order."""
        with self.session() as s:
            rows = s.scalars(select(ResultRow).where(ResultRow.run_id == run_id)
                             .options(selectinload(ResultRow.steps))
                             .order_by(ResultRow.id)).all()
            return [_result(r) for r in rows]

    def result(self, result_id: int) -> RunResult:
        """One result with its trajectory; KeyError if absent."""
        with self.session() as s:
            row = s.get(ResultRow, result_id, options=[selectinload(ResultRow.steps)])
            if row is None:
                raise KeyError(f"no result with id {result_id}")
            return _result(row)

    def finished_results(self, run_id: int) -> dict[ResultKey, RunResult]:
        """Results already stored for a run, keyed by (variant hash, case hash, repeat)."""
        return {(r.variant_hash, r.case_hash, r.repeat): r for r in self.results(run_id)}

    # -- response cache ----------------------------------------------------------------------
    def get(self, key: str) -> dict[str, Any] | None:
        """ResponseStore: a cached model reply."""
        with self.session() as s:
            row = s.get(ResponseCacheRow, key)
            return None if row is None else row.value

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        """ResponseStore: cache a model reply (committed at once)."""
        with self._lock, self.session() as s:
            s.merge(ResponseCacheRow(key=key, model=model, value=value))
            s.commit()


def _result(row: ResultRow) -> RunResult:
    steps = [TrajectoryStep(index=st.index, agent=st.agent, tool=st.tool, args=st.args,
                            observation=st.observation, error=st.error) for st in row.steps]
    return RunResult(
        id=row.id, run_id=row.run_id, variant=row.variant, variant_hash=row.variant_hash,
        case_id=row.case_id, case_hash=row.case_hash, repeat=row.repeat, output=row.output,
        steps=steps, model_calls=row.model_calls, fresh_model_calls=row.fresh_model_calls,
        latency_s=row.latency_s, input_tokens=row.input_tokens, output_tokens=row.output_tokens,
        cost_usd=row.cost_usd, error=row.error, files=row.files or {},
        created_at=_aware(row.created_at))


def _aware(value: datetime) -> datetime:
    from datetime import UTC

    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _run_info(run: RunRow, ds: DatasetRow, results: int, errors: int) -> RunInfo:
    return RunInfo(id=run.id, key=run.key, dataset=ds.name, dataset_version=ds.version,
                   config=run.config, status=run.status, created_at=_aware(run.created_at),
                   finished_at=_aware(run.finished_at) if run.finished_at else None,
                   results=results, errors=errors)

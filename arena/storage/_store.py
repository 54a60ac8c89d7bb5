"""The Store: every read and write of runs, results, trajectories and the response cache."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, selectinload

from arena.errors import InputError, NotFound
from arena.golden import GoldenDataset, case_hash, dataset_hash
from arena.records.results import RunInfo, RunResult, utcnow
from arena.secrets import scrub
from arena.storage import _statements as statements
from arena.storage._battles import BattleStoreMixin
from arena.storage._engine import (
    make_engine,
    open_error,
    resolve_url,
    safe_url,
    url_origin,
    write_engine,
)
from arena.storage._from_rows import result_record, run_info
from arena.storage._loaded import LoadedStoreMixin
from arena.storage._mutations import MutationStoreMixin
from arena.storage._results import replace_result, scrubbed
from arena.storage._schema import SchemaUpgrade, prepare_schema
from arena.storage._scores import ScoreStoreMixin
from arena.storage._tables import (
    CaseRow,
    DatasetRow,
    ResponseCacheRow,
    ResultRow,
    RunRow,
    VariantRow,
)
from arena.storage._writes import insert_ignore, run_core_write, run_write, upsert
from arena.variants.variant import Variant
from arena.variants.version import VariantVersion

ResultKey = tuple[str, str, int]
T = TypeVar("T")


class Store(BattleStoreMixin, ScoreStoreMixin, MutationStoreMixin, LoadedStoreMixin):
    """A database of arena runs. Each write commits at once, so a killed run loses nothing."""

    def __init__(self, url: str | None = None, *, read_only: bool = False) -> None:
        """Open the database (a new one gets every table).

        An older database (an older schema revision, or none) is upgraded first, after a
        backup copy of an SQLite file (:attr:`upgraded` says what was done); with
        ``read_only`` (commands that only read) it is refused instead, naming
        ``arena db upgrade``, and nothing is written. A database written by a newer
        agent-arena is refused (InputError).
        """
        self.url = resolve_url(url)
        self._lock = threading.RLock()
        self.engine = make_engine(url)
        self._writer = write_engine(self.engine)
        where = f"{url_origin(url)} {safe_url(self.url)}"
        try:
            self.upgraded: SchemaUpgrade | None = prepare_schema(
                self.engine, self._writer, where, read_only=read_only
            )
        except DBAPIError as exc:
            self.engine.dispose()
            raise open_error(self.url, url_origin(url), exc) from None
        except InputError:
            self.engine.dispose()
            raise
        # A forgotten Store returns its pooled connections (a long-lived process opening
        # many stores must not exhaust a server's connection slots).
        self._finalizer = weakref.finalize(self, self.engine.dispose)

    @property
    def inline_io(self) -> bool:
        """True on SQLite: a call on a local file costs less than a hop to a worker thread,
        so the runner and the response cache call it on the event loop (a database server's
        round trips still run on worker threads)."""
        return self.engine.dialect.name == "sqlite"

    def close(self) -> None:
        """Close the pooled connections now (the Store reconnects if used again)."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def session(self) -> Session:
        """A new ORM session for reading (internal to the storage package and its helpers)."""
        return Session(self.engine, expire_on_commit=False)

    def _write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one write transaction, retried when a concurrent writer conflicts."""
        with self._lock:
            return run_write(lambda: Session(self._writer, expire_on_commit=False), work)

    # -- datasets and variants -------------------------------------------------------------
    def ensure_dataset(self, dataset: GoldenDataset, path: str = "") -> int:
        """Store the dataset and its cases once (by content hash); return its id."""
        digest = dataset_hash(dataset)

        def work(s: Session) -> int:
            values = {
                "name": dataset.name,
                "version": dataset.version,
                "hash": digest,
                "path": path,
                "body": dataset.model_dump(mode="json", exclude={"test_cases"}),
            }
            inserted = insert_ignore(s, DatasetRow, values, ["hash"])
            dataset_id = s.scalar(select(DatasetRow.id).where(DatasetRow.hash == digest))
            assert dataset_id is not None
            if inserted:  # the cases go in with their dataset, in the same transaction
                for case in dataset.test_cases:
                    s.add(
                        CaseRow(
                            dataset_id=dataset_id,
                            case_id=case.id,
                            case_hash=case_hash(case),
                            category=case.category,
                            tier=case.tier.value,
                            body=case.model_dump(mode="json"),
                        )
                    )
            return dataset_id

        return self._write(work)

    def load_dataset(self, dataset_id: int) -> GoldenDataset:
        """Rebuild a stored dataset."""
        with self.session() as s:
            row = s.get(DatasetRow, dataset_id)
            if row is None:
                raise NotFound(f"no dataset {dataset_id}")
            cases = s.scalars(
                select(CaseRow).where(CaseRow.dataset_id == dataset_id).order_by(CaseRow.id)
            ).all()
            return GoldenDataset.model_validate({**row.body, "test_cases": [c.body for c in cases]})

    def ensure_variant(self, variant: Variant) -> None:
        """Store the variant's resolved config under its name and version hash."""
        values = {
            "name": variant.name,
            "hash": variant.version_hash,
            "description": variant.description,
            "config": {
                **scrub(variant.model_dump(mode="json")),
                VERSION_KEY: variant.version.model_dump(),
            },
        }
        self._write(lambda s: insert_ignore(s, VariantRow, values, ["name", "hash"]))

    def variants(self) -> list[Variant]:
        """Every stored variant version, oldest first."""
        with self.session() as s:
            rows = s.scalars(select(VariantRow).order_by(VariantRow.id)).all()
            return [_stored_variant(r.config, r.hash) for r in rows]

    # -- runs --------------------------------------------------------------------------------
    def open_run(self, key: str, dataset_id: int, config: dict[str, Any]) -> tuple[int, bool]:
        """The run with this key (resumed) or a new one; returns (run id, resumed)."""

        def work(s: Session) -> tuple[int, bool]:
            inserted = insert_ignore(
                s,
                RunRow,
                {
                    "key": key,
                    "dataset_id": dataset_id,
                    "config": scrub(config),
                    "status": "running",
                },
                ["key"],
            )
            run_id = s.scalar(select(RunRow.id).where(RunRow.key == key))
            assert run_id is not None
            if not inserted:
                s.execute(update(RunRow).where(RunRow.id == run_id).values(status="running"))
            return run_id, not inserted

        return self._write(work)

    def finish_run(self, run_id: int, status: str = "finished") -> None:
        """Mark a run finished (or interrupted)."""
        self._write(
            lambda s: s.execute(
                update(RunRow)
                .where(RunRow.id == run_id)
                .values(status=status, finished_at=utcnow())
            )
        )

    def mark_run_failed(self, run_id: int) -> None:
        """Mark a run that is not finished as failed (e.g. killed while ``running``); running
        its command again still resumes it.

        Raises:
            NotFound: no such run.
            InputError: the run finished (``finished`` or ``stopped`` by a budget).
        """
        status = self.run(run_id).status
        if status in ("finished", "stopped"):
            raise InputError(
                f"run {run_id} is {status}, not interrupted: only a run that did not finish "
                "can be marked failed",
                field="--mark-failed",
            )
        self.finish_run(run_id, "failed")

    def runs(self) -> list[RunInfo]:
        """All runs, newest first, with result and error counts."""
        with self.session() as s:
            counts = dict(
                s.execute(select(ResultRow.run_id, func.count()).group_by(ResultRow.run_id)).all()
            )
            errors = dict(
                s.execute(
                    select(ResultRow.run_id, func.count())
                    .where(ResultRow.error.is_not(None))
                    .group_by(ResultRow.run_id)
                ).all()
            )
            rows = s.execute(
                select(RunRow, DatasetRow).join(DatasetRow).order_by(RunRow.id.desc())
            ).all()
            return [
                run_info(run, ds, counts.get(run.id, 0), errors.get(run.id, 0)) for run, ds in rows
            ]

    def run(self, run_id: int | None = None) -> RunInfo:
        """One run (the newest golden run when ``run_id`` is None: a shadow run of production
        traces is only ever named); NotFound if there is none."""
        runs = self.runs()
        if run_id is None:
            golden = [r for r in runs if not r.is_shadow]
            if not golden and runs:
                raise NotFound(
                    f"only shadow runs (arena shadow, production traces) are stored, the newest "
                    f"{runs[0].id}: run `arena run` on a golden set, or name the run (--run)"
                )
            if not golden:
                raise NotFound("no runs stored yet: run `arena run` or `arena demo` first")
            return golden[0]
        for info in runs:
            if info.id == run_id:
                return info
        raise NotFound(f"no run with id {run_id}")

    def run_dataset(self, run_id: int) -> GoldenDataset:
        """The dataset a run used."""
        with self.session() as s:
            row = s.get(RunRow, run_id)
            if row is None:
                raise NotFound(f"no run with id {run_id}")
            dataset_id = row.dataset_id
        return self.load_dataset(dataset_id)

    # -- results -----------------------------------------------------------------------------
    def save_result(self, result: RunResult) -> int:
        """Store one result with its steps, committed at once; returns the stored row's id.

        A result that already exists for the same run, variant, case and repeat is kept if it
        has no error (another process finished it first); an errored one is replaced in place,
        with its trajectory, and its scores and battles (which judged the old output) are
        deleted in the same transaction.
        """
        clean = scrubbed(result)  # keys, tokens and credentials never stored
        return self._write(lambda s: replace_result(s, clean))

    def finished_result(self, run_id: int, key: ResultKey) -> RunResult | None:
        """The stored result without error for (variant hash, case hash, repeat), or None."""
        variant_hash, digest, repeat = key
        with self.engine.connect() as conn:  # the usual answer, none yet, in one cheap query
            params = statements.result_params(run_id, key)
            if conn.execute(statements.finished_result_id(), params).first() is None:
                return None
        with self.session() as s:
            row = s.scalar(
                select(ResultRow)
                .where(
                    ResultRow.run_id == run_id,
                    ResultRow.variant_hash == variant_hash,
                    ResultRow.case_hash == digest,
                    ResultRow.repeat == repeat,
                    ResultRow.error.is_(None),
                )
                .options(selectinload(ResultRow.steps))
            )
            return None if row is None else result_record(row)

    def results(self, run_id: int) -> list[RunResult]:
        """Every result of a run, in insertion order."""
        with self.session() as s:
            rows = s.scalars(
                select(ResultRow)
                .where(ResultRow.run_id == run_id)
                .options(selectinload(ResultRow.steps))
                .order_by(ResultRow.id)
            ).all()
            return [result_record(r) for r in rows]

    def result(self, result_id: int) -> RunResult:
        """One result with its trajectory (and a failed graph run's states, which a run's
        results are loaded without); NotFound if absent."""
        with self.session() as s:
            row = s.get(ResultRow, result_id, options=[selectinload(ResultRow.steps)])
            if row is None:
                raise NotFound(f"no result with id {result_id}")
            return result_record(row, with_states=True)

    def finished_results(self, run_id: int) -> dict[ResultKey, RunResult]:
        """Results already stored for a run, keyed by (variant hash, case hash, repeat)."""
        return {(r.variant_hash, r.case_hash, r.repeat): r for r in self.results(run_id)}

    # -- response cache ----------------------------------------------------------------------
    def get(self, key: str) -> dict[str, Any] | None:
        """ResponseStore: a cached model reply."""
        with self.engine.connect() as conn:
            value: dict[str, Any] | None = conn.execute(
                statements.cache_get(), {"key": key}
            ).scalar()
            return value

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        """ResponseStore: cache a model reply, replacing any older one (committed at once)."""
        values = {"key": key, "model": model, "value": scrub(value), "created_at": utcnow()}
        dialect = self.engine.dialect.name
        if dialect not in statements.UPSERT_DIALECTS:
            self._write(lambda s: upsert(s, ResponseCacheRow, values, ["key"]))
            return
        with self._lock:
            run_core_write(
                self._writer, lambda conn: conn.execute(statements.cache_put(dialect), values)
            )

    def delete(self, key: str) -> None:
        """ResponseStore: forget a cached model reply (no error if absent)."""
        with self._lock:
            run_core_write(
                self._writer, lambda conn: conn.execute(statements.cache_delete(), {"key": key})
            )


VERSION_KEY = "$version"
"""Where a stored variant's config keeps its version's parts (what a rerun compares)."""


def _stored_variant(config: dict[str, Any], stored_hash: str) -> Variant:
    """A stored variant, labelled with the version it was stored under (never recomputed
    from today's code)."""
    body = dict(config)
    parts = body.pop(VERSION_KEY, None)
    version = (
        VariantVersion.model_validate(parts)
        if isinstance(parts, dict)
        else VariantVersion.legacy(stored_hash)
    )
    return Variant.model_validate(body).with_version(version)

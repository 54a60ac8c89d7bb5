"""Two `arena run` and then two `arena judge` processes on one database at the same instant,
ten times over, on SQLite and on PostgreSQL, against an endpoint failing 20% of the time:
no process crashes, nothing is lost (whatever either process got is stored), nothing is
duplicated."""

from __future__ import annotations

import gc
import json
import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.storage import Store
from tests.faults.scenario import API_KEY, KEY_ENV, Files, cli, expected_answer, write_files
from tests.support.fault_server import FaultServer
from tests.support.postgres import postgres_cluster
from tests.support.processes import apply_env, arena_env, worker_context

pytestmark = pytest.mark.system

PROCESSES = 2
REPEATS = 10
CASES = 4
FAULTS = ("429", "500", "503", "truncated", "bad_json", "empty_choices", "bad_verdict")


def _worker(env: dict[str, str], files: list[Files], barrier: Any, out: Any) -> None:
    """One process: for every database, `arena run` then `arena judge`, in step with the other."""
    apply_env(env)
    for f in files:
        for step, args in (("run", f.run_args()), ("judge", f.judge_args("text"))):
            try:
                barrier.wait(timeout=120)
            except Exception as exc:  # the other process died: report and stop
                out.put((f.db, step, -2, "", f"barrier: {exc!r}"))
                return
            code, stdout, stderr = cli(args)
            gc.collect()  # a real CLI process exits here: release its stores' connections
            out.put((f.db, step, code, stdout, stderr))


def _race(files: list[Files]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    ctx = worker_context()
    barrier, out = ctx.Barrier(PROCESSES), ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(arena_env(), files, barrier, out))
        for _ in range(PROCESSES)
    ]
    for proc in procs:
        proc.start()
    docs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    failures = []
    try:
        for _ in range(PROCESSES * len(files) * 2):
            db, step, code, stdout, stderr = out.get(timeout=300)
            if code != 0 or "Traceback" in stderr:
                failures.append(f"{step} on {db} exited {code}:\n{stderr[-3000:]}")
                if code == -2:
                    break
                continue
            docs.setdefault((db, step), []).append(json.loads(stdout))
    except queue.Empty:
        failures.append("a process stopped answering")
    finally:
        for proc in procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
    assert not failures, "\n".join(failures)
    return docs


def _check(f: Files, runs: list[dict[str, Any]], judges: list[dict[str, Any]]) -> None:
    with Store(f.db) as store:
        _check_store(store, f, runs, judges)


def _check_store(
    store: Store, f: Files, runs: list[dict[str, Any]], judges: list[dict[str, Any]]
) -> None:
    (info,) = store.runs()
    stored = store.results(info.id)
    assert len(stored) == info.results == len(f.variants) * CASES  # nothing lost or doubled
    assert len({(r.variant, r.case_id, r.repeat) for r in stored}) == len(stored)
    by_key = {(r.variant, r.case_id): r for r in stored}
    for r in stored:
        assert r.error or r.output == expected_answer(r.variant, f.inputs[r.case_id])
    for doc in runs:  # whatever either process got is what is stored
        for r in doc["results"]:
            if r["error"] is None:
                assert by_key[(r["variant"], r["case_id"])].error is None
                assert by_key[(r["variant"], r["case_id"])].output == r["output"]
    battles = store.battles(info.id)
    assert len({(b.case_id, b.variant_a, b.variant_b) for b in battles}) == len(battles)
    decided = {(b.case_id, b.variant_a, b.variant_b): b.winner for b in battles}
    answered = {(r.case_id) for r in stored if r.error is None}
    both = {
        cid for cid in answered if all(by_key[(v, cid)].error is None for v in ("strong", "weak"))
    }
    assert {key[0] for key in decided} == both
    for doc in judges:
        for b in doc["battles"]:
            key = (b["case_id"], b["variant_a"], b["variant_b"])
            if b["winner"] != "error" and key in decided:
                assert decided[key] == b["winner"], b  # a later failure never replaced it
    for key, winner in decided.items():
        assert winner in ("model_a", "error"), (key, winner)  # strong (A) wins or an error


def _scenario(tmp_path: Path, server: FaultServer, dbs: list[str]) -> list[Files]:
    return [
        write_files(tmp_path / f"r{i}", server.base_url, db, cases=CASES, models=("strong", "weak"))
        for i, db in enumerate(dbs)
    ]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultServer]:
    """A fault server failing 20% of requests (no hangs: they only slow this test down)."""
    monkeypatch.setenv(KEY_ENV, API_KEY)
    monkeypatch.setenv("ARENA_RETRIES", "2")
    with FaultServer(rate=0.2, kinds=FAULTS, seed=11) as fault_server:
        yield fault_server


def _run_races(files: list[Files]) -> None:
    docs = _race(files)
    for f in files:
        _check(f, docs[(f.db, "run")], docs[(f.db, "judge")])


def test_two_processes_on_one_sqlite_file(tmp_path: Path, server: FaultServer) -> None:
    _run_races(
        _scenario(
            tmp_path, server, [f"sqlite:///{tmp_path / f'arena{i}.db'}" for i in range(REPEATS)]
        )
    )


@pytest.fixture(scope="module")
def postgres_dbs() -> Iterator[list[str]]:
    """A throwaway cluster with one empty database per repetition."""
    with postgres_cluster(tuple(f"race{i}" for i in range(REPEATS))) as urls:
        yield list(urls.values())


def test_two_processes_on_one_postgres_database(
    tmp_path: Path, server: FaultServer, postgres_dbs: list[str]
) -> None:
    _run_races(_scenario(tmp_path, server, postgres_dbs))

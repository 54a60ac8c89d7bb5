"""Faults on a real two-node cluster: a worker process killed mid-run has its tasks retried
elsewhere and loses nothing; a killed driver's rerun resumes; the concurrency limit of an
endpoint holds across every worker of the cluster."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from arena.storage import Store
from tests.cluster.cluster import Cluster
from tests.faults.scenario import API_KEY, KEY_ENV, Files, cli_json, expected_answer, write_files
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system


class PeakServer(FaultServer):
    """The fault server, also counting the chat requests it is serving at once."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self.busy = self.peak = 0
        self._busy_lock = threading.Lock()

    def _decide(self, body: bytes, model: str) -> str:
        with self._busy_lock:
            self.busy += 1
            self.peak = max(self.peak, self.busy)
        return super()._decide(body, model)

    def reply(self, request: dict[str, Any], kind: str) -> dict[str, Any]:
        try:
            return super().reply(request, kind)
        finally:
            with self._busy_lock:
                self.busy -= 1


def _ray_args(files: Files, cluster: Cluster, *extra: str) -> list[str]:
    return files.run_args("--executor", "ray", "--ray-address", cluster.address, *extra)


def _wait_for_results(store: Store, count: int, proc: Any, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        runs = store.runs()
        if runs and runs[0].results >= count:
            return
        time.sleep(0.05)
    _out, err = proc.communicate() if proc.poll() is not None else ("", "")
    pytest.fail(f"the run did not reach {count} results while running: {err[-3000:]}")


def _all_exact(files: Files, store: Store, run_id: int, total: int) -> None:
    results = store.results(run_id)
    assert len(results) == total  # one row per task: nothing lost, nothing duplicated
    assert len({(r.variant, r.case_id, r.repeat) for r in results}) == total
    for r in results:
        assert r.error is None, r.error
        assert r.output == expected_answer(r.variant, files.inputs[r.case_id])


def test_worker_killed_mid_run_loses_nothing(cluster: Cluster, tmp_path: Path) -> None:
    with FaultServer(delay_s=0.5) as server:
        files = write_files(
            tmp_path, server.base_url, f"sqlite:///{tmp_path / 'arena.db'}", cases=12
        )
        total = len(files.variants) * len(files.inputs)
        proc = cluster.arena(_ray_args(files, cluster, "--ray-workers", "2", "--concurrency", "6"))
        store = Store(files.db)
        _wait_for_results(store, 4, proc)
        workers = cluster.ray_workers("ArenaWorker")
        assert workers["head"] or workers["worker"], cluster.diagnose("no arena worker")
        # Mid-run, each worker holds tasks in flight: kill the worker node's (else one).
        victim = (workers["worker"] or workers["head"])[0]
        os.kill(victim, signal.SIGKILL)
        _out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err[-4000:]
        assert "a Ray worker died" in err and "retrying its task elsewhere" in err
        (run,) = store.runs()
        assert run.status == "finished"
        _all_exact(files, store, run.id, total)


def test_killed_driver_rerun_resumes(cluster: Cluster, tmp_path: Path) -> None:
    with FaultServer(delay_s=0.4) as server:
        files = write_files(
            tmp_path, server.base_url, f"sqlite:///{tmp_path / 'arena.db'}", cases=12
        )
        total = len(files.variants) * len(files.inputs)
        proc = cluster.arena(_ray_args(files, cluster, "--concurrency", "4"))
        store = Store(files.db)
        _wait_for_results(store, 6, proc)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        time.sleep(2)  # the driver's workers die with it
        (run,) = store.runs()
        before = {r.id: r.output for r in store.results(run.id)}
        assert 6 <= len(before) < total and run.status == "running"

        server.reset()
        report = cluster.arena_json(_ray_args(files, cluster))
        assert report["run_id"] == run.id and report["reused_results"] >= len(before)
        assert report["model_calls"] == server.stats()["requests"] <= total - len(before)
        _all_exact(files, store, run.id, total)
        assert {rid: out for rid, out in before.items()} == {
            r.id: r.output for r in store.results(run.id) if r.id in before
        }


def test_endpoint_limit_holds_across_the_cluster(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    with PeakServer(delay_s=0.3) as server:
        local = write_files(
            tmp_path / "local", server.base_url, f"sqlite:///{tmp_path / 'local.db'}", cases=8
        )
        cli_json(local.run_args("--concurrency", "8"))
        assert server.peak > 2  # unlimited, this workload keeps more requests in flight
        server.peak = 0
        files = write_files(
            tmp_path / "ray", server.base_url, f"sqlite:///{tmp_path / 'ray.db'}", cases=8
        )
        report = cluster.arena_json(
            _ray_args(
                files,
                cluster,
                "--ray-workers",
                "4",
                "--concurrency",
                "8",
                "--endpoint-concurrency",
                "2",
            )
        )
        assert len(report["results"]) == 24 and not any(r["error"] for r in report["results"])
        assert server.peak == 2  # 8 tasks in flight on 4 workers, 2 requests at a time
        server.peak = 0
        judged = cluster.arena_json(
            files.judge_args(
                "text",
                "--executor",
                "ray",
                "--ray-address",
                cluster.address,
                "--ray-workers",
                "4",
                "--concurrency",
                "8",
                "--endpoint-concurrency",
                "2",
            )
        )
        assert len(judged["battles"]) == 24 and judged["model_calls"] == 48
        assert server.peak == 2  # 8 pairs in flight, both orders each: still 2 at a time

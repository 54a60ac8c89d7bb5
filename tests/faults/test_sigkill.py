"""A run under faults killed with SIGKILL loses nothing: the rerun keeps every stored result
and completes the rest, asking only for what was missing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.storage import Store
from tests.faults.scenario import API_KEY, KEY_ENV, cli_json, expected_answer, write_files
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system
ROOT = Path(__file__).resolve().parents[2]


def test_sigkilled_run_under_faults_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    monkeypatch.setenv("ARENA_RETRIES", "2")
    with FaultServer(
        rate=0.2, kinds=["429", "500", "503", "truncated", "bad_json"], delay_s=0.3, seed=3
    ) as server:
        files = write_files(tmp_path, server.base_url, f"sqlite:///{tmp_path / 'arena.db'}")
        total = len(files.variants) * len(files.inputs)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        args = [arg for arg in files.run_args() if arg != "--json"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "arena.cli", *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        store = Store(files.db)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:
            runs = store.runs()
            if runs and runs[0].results >= 6:
                break
            time.sleep(0.05)
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it could be killed: {proc.communicate()[1]}")
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        (run,) = store.runs()
        before = {r.id: r for r in store.results(run.id)}
        assert 6 <= len(before) < total and run.status == "running"

        server.configure(rate=0.0, delay_s=0.0)
        server.reset()
        report, _ = cli_json(files.run_args("--retry-errors"))
    assert report["run_id"] == run.id and len(report["results"]) == total
    finished = {r.id: r for r in store.results(run.id)}
    assert len(finished) == total and all(r.error is None for r in finished.values())
    for rid, old in before.items():  # nothing stored before the kill was lost or changed
        if old.error is None:
            assert finished[rid].output == old.output
    for r in finished.values():
        assert r.output == expected_answer(r.variant, files.inputs[r.case_id])
    missing = total - sum(1 for r in before.values() if r.error is None)
    assert report["model_calls"] == len(server.log()) <= missing
    assert store.run(run.id).status == "finished"

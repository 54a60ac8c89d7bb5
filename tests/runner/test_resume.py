"""A run killed with SIGKILL resumes without redoing finished results (real subprocess)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.storage import Store

pytestmark = pytest.mark.system
ROOT = Path(__file__).resolve().parents[2]


def _arena(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "arena.cli", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_sigkill_mid_run_then_resume(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    variant = tmp_path / "slow.yaml"
    variant.write_text(
        "name: slow\nagent: tests.support.agents:slow_agent\nmodel: {spec: 'fake:echo'}\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ARENA_TEST_SLEEP": "0.15",
        "ARENA_SANDBOX_DIR": str(tmp_path / "sb"),
    }
    args = [
        "run",
        "--variants",
        str(variant),
        "--tier",
        "critical",
        "--concurrency",
        "1",
        "--db",
        db,
        "--json",
    ]
    proc = _arena(args, env)
    store = Store(db)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        runs = store.runs()
        if runs and runs[0].results >= 3:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    (run,) = store.runs()
    done_before = {r.id: r.case_id for r in store.results(run.id)}
    assert 3 <= len(done_before) < 8 and run.status == "running"

    finished = _arena(args, env)
    out, err = finished.communicate(timeout=120)
    assert finished.returncode == 0, err
    report = json.loads(out)
    assert report["run_id"] == run.id and report["reused_results"] == len(done_before)
    ids = {r["id"]: r["case_id"] for r in report["results"]}
    assert all(ids.get(rid) == case for rid, case in done_before.items())
    assert store.run(run.id).status == "finished"

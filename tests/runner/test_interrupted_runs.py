"""A run interrupted anywhere is never left `running` with no way out (issue 36, finding 6):
SIGTERM and errors mark it `interrupted`; one killed outright (SIGKILL) shows in `arena runs`
with what to do, and `arena runs --mark-failed RUN` records it failed; the same `arena run`
command resumes either without redoing its finished results (real subprocesses)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.cli import main
from arena.storage import Store

pytestmark = pytest.mark.system
ROOT = Path(__file__).resolve().parents[2]


def _setup(tmp_path: Path) -> tuple[str, list[str], dict[str, str]]:
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
    args = ["run", "--variants", str(variant), "--tier", "critical", "--concurrency", "1"]
    return db, [*args, "--db", db, "--json"], env


def _start_and_stop(db: str, args: list[str], env: dict[str, str], sig: int) -> int:
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    store, deadline = Store(db), time.monotonic() + 60
    while time.monotonic() < deadline:
        runs = store.runs()
        if runs and runs[0].results >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    return proc.returncode


def _resume(args: list[str], env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_sigterm_marks_the_run_interrupted_and_the_command_resumes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, args, env = _setup(tmp_path)
    assert _start_and_stop(db, args, env, signal.SIGTERM) == 143
    (run,) = Store(db).runs()
    assert run.status == "interrupted" and 2 <= run.results < 8
    assert main(["runs", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "interrupted" in out and f"run(s) {run.id} not finished" in out
    report = _resume(args, env)
    assert report["run_id"] == run.id and report["reused_results"] == run.results
    assert Store(db).run(run.id).status == "finished"


def test_a_killed_run_is_shown_and_can_be_marked_failed_then_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, args, env = _setup(tmp_path)
    assert _start_and_stop(db, args, env, signal.SIGKILL) == -signal.SIGKILL
    (run,) = Store(db).runs()
    assert run.status == "running"  # nothing could run on SIGKILL
    before = {r.id: r.case_id for r in Store(db).results(run.id)}
    assert main(["runs", "--db", db]) == 0
    out = capsys.readouterr().out
    assert f"run(s) {run.id} not finished" in out
    assert f"arena runs --mark-failed {run.id}" in out and "resume" in out
    assert main(["runs", "--mark-failed", str(run.id), "--db", db]) == 0
    assert "marked failed" in capsys.readouterr().out
    assert Store(db).run(run.id).status == "failed"
    report = _resume(args, env)
    assert report["run_id"] == run.id and report["reused_results"] == run.results
    results = report["results"]
    assert isinstance(results, list)
    ids = {r["id"]: r["case_id"] for r in results}
    assert all(ids.get(rid) == case for rid, case in before.items())  # kept, not redone
    assert Store(db).run(run.id).status == "finished"
    assert main(["runs", "--mark-failed", str(run.id), "--db", db]) == 2
    assert "is finished, not interrupted" in capsys.readouterr().err
    assert main(["runs", "--mark-failed", "99", "--db", db]) == 2
    assert "no run with id 99" in capsys.readouterr().err

"""The local llama.cpp server stops with the arena: on Ctrl-C, and even on SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"_llama_child" in cmdline:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start_run(tmp_path: Path, name: str) -> tuple[subprocess.Popen[bytes], int]:
    args = [
        sys.executable,
        "-m",
        "arena.cli",
        "run",
        "--variants",
        str(ROOT / "data" / "variants" / "baseline.yaml"),
        "--cases",
        "MS-001",
        "--db",
        f"sqlite:///{tmp_path / name}",
        "--json",
    ]
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "ARENA_SANDBOX_DIR": str(tmp_path / "sb")},
        # as from a terminal: a background job (CI started with `&`) inherits SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        servers = _children(proc.pid)
        if servers:
            return proc, servers[0]
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.2)
    proc.kill()
    pytest.fail("the run never started a llama.cpp server")


def _gone(pid: int, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


def test_server_stops_on_ctrl_c_and_on_sigkill(tmp_path: Path) -> None:
    proc, server = _start_run(tmp_path, "a.db")
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    assert _gone(server), "the server outlived a Ctrl-C'd run"

    proc, server = _start_run(tmp_path, "b.db")
    proc.kill()
    proc.wait(timeout=30)
    assert _gone(server), "the server outlived a SIGKILLed run"

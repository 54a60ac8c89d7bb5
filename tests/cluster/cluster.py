"""A real two-node Ray cluster on 127.0.0.1: a head and a worker node, each ``ray start
--block`` in a process group of its own, and the arena driver as a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).with_name("ray_node.py")
LOOPBACK = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_AUTH_MODE": "disabled",
}  # loopback only; no token file written or read
START_TIMEOUT_S = 90


@dataclass
class Cluster:
    """The running cluster: its address, node processes and the environment they share."""

    address: str
    head: subprocess.Popen[bytes]
    worker: subprocess.Popen[bytes]
    env: dict[str, str]
    root: Path

    def arena(self, args: list[str], **env: str) -> subprocess.Popen[str]:
        """``arena ARGS`` as a driver process of this cluster."""
        return subprocess.Popen(
            [sys.executable, "-m", "arena.cli", *args],
            cwd=ROOT,
            env={**self.env, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def arena_json(self, args: list[str], timeout: float = 120) -> dict[str, object]:
        """``arena ARGS --json`` to completion; fails on a non-zero exit."""
        proc = self.arena(args)
        out, err = proc.communicate(timeout=timeout)
        assert proc.returncode == 0, f"arena {args[0]} exited {proc.returncode}:\n{err[-4000:]}"
        doc: dict[str, object] = json.loads(out)
        return doc

    def diagnose(self, problem: str) -> str:
        """``problem``, whether the nodes still run, and the end of their logs."""
        logs = "\n".join(
            f"--- {name} (exit {proc.poll()}):\n"
            + (self.root / f"{name}.log").read_text(errors="replace")[-1500:]
            for name, proc in (("head", self.head), ("worker", self.worker))
        )
        return f"{problem}\n{logs}"

    def ray_workers(self, title: str) -> dict[str, list[int]]:
        """Pids of this cluster's Ray workers whose title starts ``ray::TITLE``, by node
        (``head``, ``worker``): children of the node's raylet, in the node's process group."""
        table = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            table[int(entry.name)] = (int(stat[1]), int(stat[2]), command)  # ppid, pgid
        found: dict[str, list[int]] = {}
        for name, leader in (("head", self.head.pid), ("worker", self.worker.pid)):
            node = {pid for pid, (_, pgid, _) in table.items() if pgid == leader}
            found[name] = [
                pid
                for pid, (ppid, _, command) in table.items()
                if ppid in node and command.startswith(f"ray::{title}")
            ]
        return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, str(LAUNCHER), "start", *args, "--block"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            start_new_session=True,
        )  # its own process group


def _wait_started(proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if "--block" in text and "Ray runtime started" in text:
            return
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    raise RuntimeError(f"ray start did not come up:\n{log.read_text(errors='replace')[-3000:]}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the node's process group, wait for ``ray start`` to stop its processes, then
    SIGKILL whatever is left in the group."""
    for sig, wait in ((signal.SIGTERM, 3), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


@contextmanager
def ray_cluster(extra_env: dict[str, str]) -> Iterator[Cluster]:
    """Head (1 CPU) and worker node (1 CPU) on 127.0.0.1, stopped on exit."""
    root = Path(tempfile.mkdtemp(prefix="arena-ray-"))  # short: Ray's socket paths
    port = _free_port()
    path = os.pathsep.join(filter(None, [extra_env.get("PYTHONPATH"), str(ROOT)]))
    env = {**os.environ, **LOOPBACK, **extra_env, "PYTHONPATH": path}
    env.pop("RAY_ADDRESS", None)
    common = [
        f"--temp-dir={root}",
        "--num-cpus=1",
        "--object-store-memory=80000000",
        "--disable-usage-stats",
    ]
    head = _start(
        [
            "--head",
            "--node-ip-address=127.0.0.1",
            f"--port={port}",
            "--include-dashboard=false",
            *common,
        ],
        env,
        root / "head.log",
    )
    worker = None
    try:
        _wait_started(head, root / "head.log")
        worker = _start([f"--address=127.0.0.1:{port}", *common], env, root / "worker.log")
        _wait_started(worker, root / "worker.log")
        yield Cluster(f"127.0.0.1:{port}", head, worker, env, root)
    finally:
        if worker is not None:
            _stop(worker)
        _stop(head)
        shutil.rmtree(root, ignore_errors=True)

"""Run the embedded llama.cpp server in a child process, one per model, shared across a run."""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ModelError
from arena.models._weights import cache_dir, ensure_weights

TEMPLATE = Path(__file__).with_name("qwen_tools.jinja")
START_TIMEOUT_S = float(os.environ.get("ARENA_LLAMA_START_TIMEOUT", "180"))


@dataclass
class LocalServer:
    """A running llama.cpp server process for one model."""

    name: str
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible endpoint, for ChatOpenAI(base_url=...)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        """SIGTERM the server and wait for it (SIGKILL after 5 s)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:
    # Linux: the server gets SIGTERM when the arena process dies, even by SIGKILL.
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as resp:
            return bool(resp.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def start_server(
    name: str, *, ctx: int = 4096, threads: int | None = None, parallel: int | None = None
) -> LocalServer:
    """Assemble the weights if needed, start the server and wait until it answers."""
    weights = ensure_weights(name)
    port = _free_port()
    log_dir = cache_dir().parent / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"llama-{name}-{port}.log"
    threads = threads or int(os.environ.get("ARENA_LLAMA_THREADS", os.cpu_count() or 2))
    parallel = parallel or int(os.environ.get("ARENA_LLAMA_PARALLEL", "2"))
    cmd = [
        sys.executable,
        "-m",
        "arena.models._llama_child",
        "--model",
        str(weights),
        "--alias",
        name,
        "--port",
        str(port),
        "--ctx",
        str(ctx),
        "--threads",
        str(threads),
        "--parallel",
        str(parallel),
        "--template",
        str(TEMPLATE),
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
    server = LocalServer(name=name, port=port, process=process, log_path=log_path)
    try:
        _wait_ready(server)
    except BaseException:  # Ctrl-C while loading included: never leave a server behind
        server.stop()
        raise
    return server


def _wait_ready(server: LocalServer) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            tail = server.log_path.read_text(errors="replace")[-2000:]
            raise ModelError(
                f"llama.cpp server for {server.name} exited ({server.process.returncode}):\n{tail}"
            )
        if _healthy(server.port):
            return
        time.sleep(0.25)
    raise ModelError(
        f"llama.cpp server for {server.name} not ready after "
        f"{START_TIMEOUT_S:.0f} s; log: {server.log_path}"
    )


class ServerPool:
    """One server per local model for the life of the process; all stopped at exit."""

    def __init__(self) -> None:
        self._servers: dict[str, LocalServer] = {}
        self._lock = threading.Lock()
        atexit.register(self.stop_all)

    def get(self, name: str) -> LocalServer:
        """The running server for this model, started on first use (or restarted if it died)."""
        with self._lock:
            server = self._servers.get(name)
            if server is None or server.process.poll() is not None:
                server = start_server(name)
                self._servers[name] = server
            return server

    def stop_all(self) -> None:
        """Stop every server this pool started."""
        with self._lock:
            for server in self._servers.values():
                server.stop()
            self._servers.clear()


_POOL: ServerPool | None = None


def server_pool() -> ServerPool:
    """The process-wide server pool."""
    global _POOL
    if _POOL is None:
        _POOL = ServerPool()
    return _POOL

"""A local HTTP server in a child process that announces itself on its first stdout line.

The child prints ``{"base_url": "http://127.0.0.1:PORT/v1"}`` once it listens; the parent
reads it, talks to ``base_url`` and stops the child (terminate, then kill after 10 s). Used by
tests/support/fault_server.py's :class:`FaultProcess` and benchmarks/chat_server.py.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Self


class ServerProcess:
    """``args`` run as a child process; a context manager with ``base_url``."""

    def __init__(self, args: Sequence[str], *, name: str, cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen(list(args), cwd=cwd, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait(10)
            raise RuntimeError(f"{name} exited with {self.proc.returncode}")
        self.base_url: str = json.loads(line)["base_url"]

    def stop(self) -> None:
        """Terminate the child process."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""A SIGTERM never skips the run's cleanup (arena.fanout.run_interruptibly): the CLI turns
SIGTERM into ``SystemExit(143)``; raised inside a nested task (a model call of one agent), that
exception left the event loop before the main task's ``except`` ran (a framework's task that
waits for its own task when cancelled raises it again while the loop shuts down), so the run
stayed ``running`` (seen under load: 2 of 25 ``arena run`` processes stopped by SIGTERM). The
signal now cancels the main task, and the handler runs once its cleanup is done."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.unit

_NESTED = """
import asyncio, os, signal, sys, threading, time
from arena.fanout import run_interruptibly

signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # what the arena CLI installs
started = threading.Event()

def busy():  # Python code of a nested task (no await): the handler runs inside it
    started.set()
    end = time.monotonic() + 1
    while time.monotonic() < end:
        pass

async def child():
    busy()

async def framework():  # a task awaiting its own task, and waiting for it when cancelled
    inner = asyncio.create_task(child())
    try:
        await inner
    except asyncio.CancelledError:
        await inner
        raise

async def main():
    try:
        await asyncio.gather(asyncio.create_task(framework()))
    except BaseException as exc:
        print("cleanup after", type(exc).__name__, flush=True)
        raise
    print("finished", flush=True)

threading.Thread(target=lambda: (started.wait(), os.kill(os.getpid(), signal.SIGTERM))).start()
runner = asyncio.run if sys.argv[1] == "asyncio" else run_interruptibly
runner(main())
"""


def _run(runner: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-c", _NESTED, runner], capture_output=True, text=True, timeout=60
    )
    return done.returncode, done.stdout.strip()


def test_asyncio_run_skips_the_cleanup_of_a_sigterm_in_a_nested_task() -> None:
    code, out = _run("asyncio")  # the failure mode this guards against
    # the main task is never cancelled: at most the interpreter closes the abandoned coroutine
    # as it exits (GeneratorExit), when the run's database may be gone already
    assert code == 143 and "CancelledError" not in out


def test_run_interruptibly_runs_the_cleanup_then_exits_143() -> None:
    assert _run("arena") == (143, "cleanup after CancelledError")

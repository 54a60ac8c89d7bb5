"""A Ctrl-C is never lost (arena.fanout.run_interruptibly): even when the cancellation a first
Ctrl-C sends is swallowed by the work it cancels, the run ends in KeyboardInterrupt (the CLI's
exit 130) instead of going on as if no key had been pressed."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.unit

_SWALLOWS = """
import asyncio, os, signal, sys
from arena.fanout import run_interruptibly

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal (not a background job)

async def work():
    try:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the work runs
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        pass  # a cancellation lost on the way (as a task finishing at that moment loses it)
    return "finished"

runner = asyncio.run if sys.argv[1] == "asyncio" else run_interruptibly
try:
    print(runner(work()))
except KeyboardInterrupt:
    print("interrupted")
"""


def _run(runner: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _SWALLOWS, runner], capture_output=True, text=True, timeout=60
    )
    return done.stdout.strip()


def test_asyncio_run_loses_a_ctrl_c_whose_cancellation_is_swallowed() -> None:
    assert _run("asyncio") == "finished"  # the failure mode this guards against


def test_run_interruptibly_keeps_it() -> None:
    assert _run("arena") == "interrupted"


def test_a_normal_run_returns_its_result_and_restores_the_handler() -> None:
    import asyncio
    import signal

    from arena.fanout import run_interruptibly

    async def work() -> int:
        await asyncio.sleep(0)
        return 7

    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
    try:
        assert run_interruptibly(work()) == 7
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)

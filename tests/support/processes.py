"""Worker processes that start in milliseconds: forked from a server that imported arena once.

``multiprocessing``'s ``spawn`` re-imports LangChain and the arena in every worker (seconds
each on a busy 2-core machine); ``fork`` would copy the test process's threads (the fault
server's among them). A ``forkserver`` has neither problem: one clean process imports the
modules below once, and every worker is forked from it. Workers do not inherit the test's
later environment changes, so pass what they need (see :func:`apply_env`).
"""

from __future__ import annotations

import multiprocessing
import os
from multiprocessing.context import ForkServerContext

PRELOAD = [
    "tests.storage.test_concurrent_writers",
    "tests.faults.test_concurrent_cli",
    "arena.cli.run",
    "arena.cli.judge",
    "arena.runner",
    "arena.battles",
    "judges._pairwise",
    "langchain_openai",
]


def worker_context() -> ForkServerContext:
    """The forkserver context, its server preloading :data:`PRELOAD`."""
    ctx = multiprocessing.get_context("forkserver")
    assert isinstance(ctx, ForkServerContext)
    ctx.set_forkserver_preload(PRELOAD)
    return ctx


def arena_env() -> dict[str, str]:
    """The variables a worker must see as the test sees them now (ARENA_*, the fault key)."""
    return {k: v for k, v in os.environ.items() if k.startswith(("ARENA_", "PYTHON"))}


def apply_env(env: dict[str, str]) -> None:
    """In a worker: take over the test's environment variables."""
    for name in [k for k in os.environ if k.startswith("ARENA_") and k not in env]:
        del os.environ[name]
    os.environ.update(env)

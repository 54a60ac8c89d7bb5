"""Where agent tasks and judge pairs run: this process (``local``) or a Ray cluster (``ray``).

Both executors run the same unit of work (:mod:`arena.executors._jobs`) against the same
database, so results, cache, resume and ``--retry-errors`` are the same wherever work runs.
The fan-out that hands them work (concurrency, progress) is :mod:`arena.fanout`.
Ray loads only when the ``ray`` executor is used (``pip install 'agent-arena[ray]'``); the
executors themselves load on first use, so the runner and the judging loop can import the
fan-out without them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.executors._base import Executor, PairOutcome, TaskOutcome
    from arena.executors._budgeted import BudgetedExecutor
    from arena.executors._local import LocalExecutor
    from arena.executors._ray_executor import RayExecutor
    from arena.fanout import FanOut, Progress

EXECUTORS = ("local", "ray")

_EXPORTS = {
    "Executor": "arena.executors._base",
    "PairOutcome": "arena.executors._base",
    "TaskOutcome": "arena.executors._base",
    "BudgetedExecutor": "arena.executors._budgeted",
    "FanOut": "arena.fanout",
    "Progress": "arena.fanout",
    "LocalExecutor": "arena.executors._local",
    "RayExecutor": "arena.executors._ray_executor",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.executors' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def make_executor(
    name: str = "local",
    *,
    address: str | None = "auto",
    workers: int | None = None,
    endpoint_concurrency: int = 2,
) -> Executor:
    """The executor ``name`` (``local`` or ``ray``); the Ray options apply to ``ray`` only."""
    if name == "ray":
        from arena.executors._ray_executor import RayExecutor

        return RayExecutor(address, workers=workers, endpoint_concurrency=endpoint_concurrency)
    if name == "local":
        from arena.executors._local import LocalExecutor

        return LocalExecutor()
    from arena.errors import InputError

    raise InputError(f"unknown executor {name!r}; use {' or '.join(EXECUTORS)}", field="--executor")


__all__ = [
    "EXECUTORS",
    "BudgetedExecutor",
    "Executor",
    "FanOut",
    "LocalExecutor",
    "PairOutcome",
    "Progress",
    "RayExecutor",
    "TaskOutcome",
    "make_executor",
]

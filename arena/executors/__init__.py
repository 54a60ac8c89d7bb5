"""Where agent tasks and judge pairs run: this process (``local``) or a Ray cluster (``ray``).

Both executors run the same unit of work (:mod:`arena.executors._jobs`) against the same
database, so results, cache, resume and ``--retry-errors`` are the same wherever work runs.
Ray loads only when the ``ray`` executor is used (``pip install 'agent-arena[ray]'``).
"""

from __future__ import annotations

from arena.executors._base import Executor, PairOutcome, TaskOutcome
from arena.executors._budgeted import BudgetedExecutor
from arena.executors._local import LocalExecutor
from arena.executors._ray_executor import RayExecutor

EXECUTORS = ("local", "ray")


def make_executor(
    name: str = "local",
    *,
    address: str | None = "auto",
    workers: int | None = None,
    endpoint_concurrency: int = 2,
) -> Executor:
    """The executor ``name`` (``local`` or ``ray``); the Ray options apply to ``ray`` only."""
    if name == "ray":
        return RayExecutor(address, workers=workers, endpoint_concurrency=endpoint_concurrency)
    if name == "local":
        return LocalExecutor()
    from arena.errors import InputError

    raise InputError(f"unknown executor {name!r}; use {' or '.join(EXECUTORS)}", field="--executor")


__all__ = [
    "EXECUTORS",
    "BudgetedExecutor",
    "Executor",
    "LocalExecutor",
    "PairOutcome",
    "RayExecutor",
    "TaskOutcome",
    "make_executor",
]

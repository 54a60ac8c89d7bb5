"""Where agent tasks and judge pairs run: the one small interface every executor implements.

An executor runs *one* unit of work and hands back its outcome; the runner
(:func:`arena.runner.run_suite_async`) and the judging loop
(:func:`arena.battles.judge_run_async`) keep everything else: which tasks are pending and
callbacks, with how many are in flight (``--concurrency``) and progress in their one fan-out
(:class:`arena.fanout.FanOut`). The unit of work is the same code in
every executor (:mod:`arena.executors._jobs`): look the task up in the database, run it, store
its result. The database stays the one source of truth, so cache, resume and
``--retry-errors`` behave the same wherever the work runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from arena.records.results import RunResult
    from arena.runner._tasks import Task
    from arena.storage import Store
    from judges import Judge
    from judges._battle import Battle


@dataclass
class TaskOutcome:
    """One agent task, finished: its stored result, and whether it was already stored (reused:
    finished by another process first, so no model call was made for it)."""

    result: RunResult
    reused: bool = False


@dataclass
class PairOutcome:
    """One pair, judged in both orders and stored, and the model requests that sent."""

    battle: Battle
    calls: int = 0


class Executor(Protocol):
    """Runs single tasks and pairs somewhere; ``None`` from a method means "not started"
    (a budget refused it), so the caller leaves it for a rerun."""

    name: str

    async def run_task(
        self, store: Store, run_id: int, task: Task, timeout_s: float
    ) -> TaskOutcome | None:
        """Run ``task`` of run ``run_id`` unless it is already stored; store its result."""
        ...

    async def judge_pair(
        self, store: Store, run_id: int, judge: Judge, pair: Any, self_judged: set[str]
    ) -> PairOutcome | None:
        """Judge ``pair`` (an ``arena.battles._runner`` pair) in both orders; store the battle."""
        ...

    def close(self) -> None:
        """Release what the executor holds (workers, connections); idempotent."""
        ...

"""The local executor: every task and pair runs in this process, on its event loop."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.executors import _jobs as jobs
from arena.executors._base import PairOutcome, TaskOutcome

if TYPE_CHECKING:
    from arena.runner._tasks import Task
    from arena.storage import Store
    from judges import Judge


class LocalExecutor:
    """Runs each unit of work in-process with the caller's Store and judge (what
    ``arena run`` does without ``--executor``)."""

    name = "local"

    def __init__(self) -> None:
        self._context = jobs.WorkerContext()

    async def run_task(
        self, store: Store, run_id: int, task: Task, timeout_s: float
    ) -> TaskOutcome | None:
        self._context.adopt(store)
        model = self._context.model(store, task.variant, task.repeat)
        return await jobs.run_task(store, model, run_id, task, timeout_s)

    async def judge_pair(
        self, store: Store, run_id: int, judge: Judge, pair: Any, self_judged: set[str]
    ) -> PairOutcome | None:
        return await jobs.judge_pair(store, judge, run_id, pair, self_judged)

    def close(self) -> None:
        """Nothing to release."""

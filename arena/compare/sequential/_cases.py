"""An executor that runs only the tasks and pairs of some cases (the sequential batch)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.executors._base import Executor, PairOutcome, TaskOutcome

if TYPE_CHECKING:
    from arena.runner._tasks import Task
    from arena.storage import Store
    from judges import Judge


class OnlyCases:
    """``inner`` for the cases in ``allowed``; every other task or pair is "not started"
    (None), so the run stays an ordinary stopped run that a rerun resumes."""

    def __init__(self, inner: Executor, allowed: set[str]) -> None:
        self.inner, self.allowed = inner, allowed
        self.name = inner.name

    async def run_task(
        self, store: Store, run_id: int, task: Task, timeout_s: float
    ) -> TaskOutcome | None:
        if task.case.id not in self.allowed:
            return None
        return await self.inner.run_task(store, run_id, task, timeout_s)

    async def judge_pair(
        self, store: Store, run_id: int, judge: Judge, pair: Any, self_judged: set[str]
    ) -> PairOutcome | None:
        if pair.case.id not in self.allowed:
            return None
        return await self.inner.judge_pair(store, run_id, judge, pair, self_judged)

    def close(self) -> None:
        """The wrapped executor is the caller's to close."""

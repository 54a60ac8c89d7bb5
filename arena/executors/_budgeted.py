"""An executor that runs work only while a :class:`~arena.plan._budget.Budget` allows it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.executors._base import Executor, PairOutcome, TaskOutcome
from arena.plan._budget import Budget, spend

if TYPE_CHECKING:
    from arena.runner._tasks import Task
    from arena.storage import Store
    from judges import Judge

JUDGE_LINE = "judge"


class BudgetedExecutor:
    """``inner``, behind ``budget``: refused work returns None (not started).

    A task's spend is its result's cost (:func:`arena.plan._budget.spend`); a pair's is the
    requests it sent times ``judge_call_usd``, the judge's estimated cost per request, and
    each pair reserves the budget's ``judge`` prior (both orders sent), never less.
    """

    def __init__(self, inner: Executor, budget: Budget, judge_call_usd: float = 0.0) -> None:
        self.inner, self.budget, self.judge_call_usd = inner, budget, judge_call_usd
        self.name = inner.name

    async def run_task(
        self, store: Store, run_id: int, task: Task, timeout_s: float
    ) -> TaskOutcome | None:
        line = task.variant.name
        reservation = await self.budget.admit(line)
        if reservation is None:
            return None
        spent: float | None = None
        measured = False
        try:
            outcome = await self.inner.run_task(store, run_id, task, timeout_s)
            if outcome is not None and not outcome.reused:
                spent = spend(outcome.result)
                measured = outcome.result.error is None
            return outcome
        finally:
            await self.budget.settle(line, reservation, spent, measured)

    async def judge_pair(
        self, store: Store, run_id: int, judge: Judge, pair: Any, self_judged: set[str]
    ) -> PairOutcome | None:
        reservation = await self.budget.admit(JUDGE_LINE)
        if reservation is None:
            return None
        spent: float | None = None
        try:
            outcome = await self.inner.judge_pair(store, run_id, judge, pair, self_judged)
            if outcome is not None:
                spent = outcome.calls * self.judge_call_usd
            return outcome
        finally:
            await self.budget.settle(JUDGE_LINE, reservation, spent)

    def close(self) -> None:
        """Close the wrapped executor."""
        self.inner.close()

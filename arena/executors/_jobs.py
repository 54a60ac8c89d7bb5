"""The unit of work every executor runs, in this process or on a Ray worker: the same code.

A task: return the stored finished result if there is one (another process finished it),
else run the agent in a fresh sandbox and store the result (first finished result wins, an
errored one is replaced: :meth:`arena.storage.Store.save_result`). A pair: judge both orders
through the verdict cache and store the battle. Model replies go through the database's
response cache, so a task retried after its worker died sends only the calls not yet answered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.executors._base import PairOutcome, TaskOutcome

if TYPE_CHECKING:
    from arena.models import CachingChatModel
    from arena.runner._tasks import Task
    from arena.storage import Store
    from arena.variants.variant import Variant
    from judges import Judge, JudgeSpec


class WorkerContext:
    """What one process keeps between jobs: a Store per database URL, the cached models of
    each (variant version, repeat) and the judges, all built on first use."""

    def __init__(self) -> None:
        self._stores: dict[str, Store] = {}
        self._models: dict[tuple[str, str, int], CachingChatModel] = {}
        self._judges: dict[tuple[str, str], Judge] = {}

    def adopt(self, store: Store) -> None:
        """Use an already open Store for its URL (the driver's own, in a local executor)."""
        self._stores.setdefault(store.url, store)

    def store(self, url: str) -> Store:
        """The Store of ``url``, opened once per process."""
        if url not in self._stores:
            from arena.storage import Store

            self._stores[url] = Store(url)
        return self._stores[url]

    def model(self, store: Store, variant: Variant, repeat: int) -> CachingChatModel:
        """The variant's cached model for one repeat, exactly as the local runner builds it
        (same identity and namespace, so the same cache keys)."""
        from arena.models import CachingChatModel, make_chat_model

        key = (store.url, variant.version_hash, repeat)
        if key not in self._models:
            config = variant.model
            self._models[key] = CachingChatModel(
                factory=lambda c=config: make_chat_model(c),
                identity=config.cache_identity(),
                namespace=f"repeat={repeat}",
                store=store,
            )
        return self._models[key]

    def judge(self, store: Store, spec: JudgeSpec) -> Judge:
        """A pairwise judge of ``spec`` caching through ``store``."""
        from judges import PairwiseJudge

        key = (store.url, spec.key)
        if key not in self._judges:
            self._judges[key] = PairwiseJudge(spec, store=store)
        return self._judges[key]


def task_sandbox(store: Store, run_id: int, task: Task) -> Any:
    """The task's sandbox folder, as the local runner names it."""
    from arena.paths import safe_name
    from arena.runner._suite import sandbox_root

    return (
        sandbox_root(run_id, store.url)
        / safe_name(task.variant.name)
        / f"{safe_name(task.case.id)}-r{task.repeat}"
    )


async def run_task(
    store: Store, model: CachingChatModel, run_id: int, task: Task, timeout_s: float
) -> TaskOutcome:
    """The stored finished result of ``task``, or run it now and store the result."""
    from arena.runner._execute import execute_task

    finished = store.finished_result(run_id, task.key)
    if finished is not None:
        return TaskOutcome(finished, reused=True)
    loaded: dict[str, str] = {}
    sandbox = task_sandbox(store, run_id, task)
    result = await execute_task(task, model, sandbox, run_id, timeout_s, None, loaded)
    result.id = store.save_result(result)
    store.record_loaded(task.variant.version.static_hash, loaded)  # where the agent ran
    return TaskOutcome(result)


async def judge_pair(
    store: Store, judge: Judge, run_id: int, pair: Any, self_judged: set[str]
) -> PairOutcome:
    """Both orders of ``pair`` through the verdict cache, combined and stored."""
    from arena.battles._runner import judge_both_orders
    from arena.models import CALLS, CallCounter

    counter = CallCounter()
    token = CALLS.set(counter)
    try:
        battle = await judge_both_orders(store, judge, run_id, pair, self_judged)
    finally:
        CALLS.reset(token)
    battle.id = store.save_battle(battle)
    return PairOutcome(battle, counter.sent)

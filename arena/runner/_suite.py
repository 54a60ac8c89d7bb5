"""Run variants x cases x repeats concurrently, resumably, with a progress bar."""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from arena.fanout import FanOut, Progress, run_interruptibly
from arena.golden import GoldenDataset
from arena.models import CachingChatModel, make_chat_model, store_call
from arena.paths import run_sandbox, safe_name
from arena.records.provenance import provenance
from arena.records.results import RunResult
from arena.runner._agents import AgentCache
from arena.runner._execute import execute_task
from arena.runner._heap import frozen_heap
from arena.runner._options import RunOptions
from arena.runner._preflight import (
    check_offered_tools,
    check_route_names,
    check_run,
    check_user_models,
)
from arena.runner._tasks import Task, plan_tasks, run_key, select_cases
from arena.runner._user_model import DEFAULT_USER_MODEL
from arena.runner._versions import changes_since_stored
from arena.storage import Store
from arena.variants.variant import Variant

#: The status of a run that raised or was stopped by a signal: the same command resumes it.
INTERRUPTED = "interrupted"


class RunReport(BaseModel):
    """What ``arena run`` did: the run id, requests actually sent, every result."""

    run_id: int
    resumed: bool
    reused: int
    model_calls: int
    results: list[RunResult]
    changes: dict[str, list[str]] = {}
    """Per variant, what changed since its newest stored version (empty: unchanged, so its
    stored results are reused where the run is resumed)."""


@dataclass
class _Finished:
    """One task done: its stored result, and whether another process had stored it first
    (the shape of :class:`arena.executors.TaskOutcome`, which an executor returns)."""

    result: RunResult
    reused: bool = False


def sandbox_root(run_id: int, database: str = "") -> Path:
    """Per-run folder where write_file may write ($ARENA_SANDBOX_DIR or the cache directory),
    unique per database AND run (arena.paths.run_sandbox)."""
    return run_sandbox(database, run_id)


def _models(
    variants: list[Variant], repeats: int, store: Store
) -> dict[tuple[str, int], CachingChatModel]:
    models = {}
    for variant in variants:
        for repeat in range(repeats):
            config = variant.model
            models[(variant.name, repeat)] = CachingChatModel(
                factory=lambda c=config: make_chat_model(c),
                identity=config.cache_identity(),
                namespace=f"repeat={repeat}",
                store=store,
            )
    return models


@dataclass
class OpenedRun:
    """A suite run opened (or resumed) in the database: its id and the tasks it holds."""

    run_id: int
    resumed: bool
    tasks: list[Task]
    changes: dict[str, list[str]]


def open_suite_run(
    store: Store, dataset: GoldenDataset, variants: list[Variant], options: RunOptions
) -> OpenedRun:
    """Check the run, then open it (or the stored run with the same key): what ``arena run``
    does before its first task. InputError on bad input, before anything is written."""
    check_run(variants, options)  # bad input fails before anything is written or called
    variants = [store.covering(v) for v in variants]  # files its runs loaded dynamically
    cases = select_cases(dataset, options.tier, options.case_ids)
    user_model = check_user_models(cases, options)
    if options.offered_tools_only:
        check_offered_tools(cases, variants, options.dataset_path, options.known_tools)
        check_route_names(cases, variants, options.dataset_path, options.known_nodes)
    tasks = plan_tasks(variants, cases, options.repeats, user_model, options.wrap_tools)
    dataset_id = store.ensure_dataset(dataset, options.dataset_path)
    changes = {v.name: changes_since_stored(store, v) for v in variants}
    for variant in variants:
        store.ensure_variant(variant)
    config = {
        "variants": {v.name: v.version_hash for v in variants},
        "tier": options.tier,
        "cases": [c.id for c in cases],
        "repeats": options.repeats,
        "provenance": provenance(),
    }  # git commit, branch, CI run URL when known
    config.update(options.run_config)
    if any(c.conversation is not None and c.conversation.simulated for c in cases):
        config["user_model"] = user_model.spec if user_model is not None else DEFAULT_USER_MODEL
    key = run_key(dataset, variants, cases, options.repeats, user_model)
    if options.rerun:  # a new run: nothing stored is reused (model replies still are cached)
        key = f"{key[:16]}-rerun-{uuid.uuid4().hex[:12]}"
    run_id, resumed = store.open_run(key, dataset_id, config)
    return OpenedRun(run_id, resumed, tasks, changes)


async def run_suite_async(
    store: Store, dataset: GoldenDataset, variants: list[Variant], options: RunOptions
) -> RunReport:
    """Run (or resume) the suite; each finished result is committed before the next starts."""
    opened = open_suite_run(store, dataset, variants, options)
    try:
        return await execute_tasks(store, opened, variants, opened.tasks, options)
    except BaseException:  # an error, Ctrl-C, SIGTERM (the CLI's SystemExit), a cancellation
        with contextlib.suppress(Exception):  # a failing database must not hide the cause
            store.finish_run(opened.run_id, INTERRUPTED)
        raise


async def execute_tasks(
    store: Store,
    opened: OpenedRun,
    variants: list[Variant],
    tasks: list[Task],
    options: RunOptions,
    *,
    finish: bool = True,
) -> RunReport:
    """Run ``tasks`` (of the open run) not finished yet and, when ``finish``, mark the run
    finished (or stopped, when a budget left some); the caller marks it interrupted if this
    raises. ``tasks`` may be some of ``opened.tasks`` (``arena.pytest_plugin``: one case)."""
    run_id, resumed, changes = opened.run_id, opened.resumed, opened.changes
    done = store.finished_results(run_id)
    pending = [
        t
        for t in tasks
        if t.key not in done or (options.retry_errors and done[t.key].error is not None)
    ]
    models = _models(variants, options.repeats, store)
    agents = AgentCache()  # each variant's agent is built once per repeat, not per task
    fresh: list[RunResult] = []

    async def here(task: Task) -> _Finished:
        # Database calls run on a worker thread, awaited (the loop serves other tasks), or
        # inline where that is cheaper (a local SQLite file: store_call).
        finished = await store_call(store, store.finished_result, run_id, task.key)
        if finished is not None:  # another process finished it meanwhile: reuse it
            return _Finished(finished, reused=True)
        sandbox = (
            sandbox_root(run_id, store.url)
            / safe_name(task.variant.name)
            / f"{safe_name(task.case.id)}-r{task.repeat}"
        )  # never a raw id
        loaded: dict[str, str] = {}
        result = await execute_task(
            task,
            models[(task.variant.name, task.repeat)],
            sandbox,
            run_id,
            task.case.timeout_s or options.case_timeout_s,
            agents,
            loaded,
        )
        result.id = await store_call(store, store.save_result, result)
        if loaded:  # what it loaded dynamically: the next version covers it
            static = task.variant.version.static_hash
            await store_call(store, store.record_loaded, static, loaded)
        return _Finished(result)

    async def elsewhere(task: Task) -> Any:  # the same work, run by options.executor
        return await options.executor.run_task(
            store, run_id, task, task.case.timeout_s or options.case_timeout_s
        )  # a TaskOutcome, or None when not started (--max-cost): a rerun resumes it

    def finished(outcome: _Finished) -> None:
        result = outcome.result
        if outcome.reused:  # stored under its task's key: the lookup was by that key
            done[(result.variant_hash, result.case_hash, result.repeat)] = result
            return
        fresh.append(result)
        for callback in options.on_result:
            callback(result)

    fan_out = FanOut(
        here=here,
        finished=finished,
        failed=lambda outcome: not outcome.reused and bool(outcome.result.error),
        elsewhere=elsewhere if options.executor is not None else None,
    )
    progress = Progress(len(pending), options.progress, "agent runs", "run")
    with frozen_heap():  # the collector skips the long-lived heap while tasks run
        await fan_out.run(pending, options.concurrency, progress)
    by_key = {**done, **{(r.variant_hash, r.case_hash, r.repeat): r for r in fresh}}
    ordered = [by_key[t.key] for t in tasks if t.key in by_key]  # all, unless a budget stopped
    if finish:
        store.finish_run(run_id, "finished" if len(ordered) == len(tasks) else "stopped")
    return RunReport(
        run_id=run_id,
        resumed=resumed,
        reused=len(ordered) - len(fresh),
        model_calls=sum(r.fresh_model_calls for r in fresh),
        results=ordered,
        changes=changes,
    )


def run_suite(
    store: Store, dataset: GoldenDataset, variants: list[Variant], options: RunOptions | None = None
) -> RunReport:
    """Run (or resume) every variant on the selected cases and store each result.

    Each finished result is committed before the next starts, so an interrupted run resumes
    where it stopped, and an unchanged rerun reuses every stored result.

    Args:
        store: the database the run and its results go to.
        dataset: the golden dataset whose cases run.
        variants: the variants to run.
        options: tier or cases, repeats, concurrency, timeouts (default: ``RunOptions()``).

    Returns:
        The run's report: its id, every result, and how many model calls were sent.

    Raises:
        InputError: bad options or variants, before anything is written or called.
    """
    return run_interruptibly(run_suite_async(store, dataset, variants, options or RunOptions()))

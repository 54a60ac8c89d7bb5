"""Plan ``arena run`` and ``arena judge`` before anything is spent.

Counts are exact: the tasks a run would execute (variants x cases x repeats), which of them
the database already holds (the same resume rule as the runner, ``--retry-errors`` included),
the pairs the judge would see and which of their requests the verdict cache holds
(:mod:`arena.plan._judge_plan`). Tokens, cost and wall time are estimates
(:mod:`arena.plan._estimate`) at each model's speed (:mod:`arena.plan._speed`: a ``local:``
model without stored results is measured with one short request unless ``measure`` is
False). Nothing is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.plan._dialogues import conversation_plan, user_estimate, with_users
from arena.plan._estimate import read_history, task_estimate
from arena.plan._judge_plan import plan_judge
from arena.plan._models import Plan, VariantPlan
from arena.plan._speed import model_speed, parallel_lanes
from arena.runner._tasks import Task, plan_tasks, run_key, select_cases

if TYPE_CHECKING:
    from arena.golden import GoldenDataset
    from arena.models import ModelConfig
    from arena.records.results import RunResult
    from arena.storage import Store
    from arena.variants.variant import Variant
    from judges import JudgeSpec


def stored_run(store: Store | None, key: str) -> int | None:
    """The id of the stored run with this resume key, if any."""
    if store is None:
        return None
    return next((info.id for info in store.runs() if info.key == key), None)


def pending_tasks(
    tasks: list[Task], done: dict[tuple[str, str, int], RunResult], retry_errors: bool
) -> list[Task]:
    """The runner's rule: a task runs unless its result is stored (and, with
    ``--retry-errors``, without error)."""
    return [
        t for t in tasks if t.key not in done or (retry_errors and done[t.key].error is not None)
    ]


def plan_run(
    store: Store | None,
    dataset: GoldenDataset,
    variants: list[Variant],
    *,
    tier: str = "all",
    case_ids: list[str] | None = None,
    repeats: int = 1,
    retry_errors: bool = False,
    concurrency: int = 2,
    judge: JudgeSpec | None = None,
    pairs: str = "all",
    measure: bool = True,
    user_model: ModelConfig | None = None,
) -> Plan:
    """What ``arena run`` with these options (then ``arena judge`` with ``judge``) would do.

    ``store`` None plans against an empty database. ``measure``: time a ``local:`` model
    that no stored result has timed yet (one short request), else assume its speed.
    """
    cases = select_cases(dataset, tier, case_ids)
    if store is not None:  # the versions arena run would use (files loaded dynamically)
        variants = [store.covering(v) for v in variants]
    tasks = plan_tasks(variants, cases, repeats, user_model)
    run_id = stored_run(store, run_key(dataset, variants, cases, repeats, user_model))
    done = store.finished_results(run_id) if store is not None and run_id is not None else {}
    pending = pending_tasks(tasks, done, retry_errors)
    history = read_history(store, variants)
    workers = max(1, concurrency)
    users = user_estimate(cases, user_model)
    lines = []
    for variant in variants:
        mine = [t for t in tasks if t.variant.version_hash == variant.version_hash]
        to_run = sum(1 for t in pending if t.variant.version_hash == variant.version_hash)
        fresh = history.usage(variant) is None
        speed = model_speed(variant.model, measure) if fresh and to_run else None
        each = with_users(task_estimate(variant, cases, history, speed), users)
        lines.append(
            VariantPlan(
                variant=variant.name,
                model=variant.model.spec,
                tasks=len(mine),
                stored=len(mine) - to_run,
                to_run=to_run,
                per_task=each,
                calls=round(to_run * each.calls),
                input_tokens=round(to_run * each.input_tokens),
                output_tokens=round(to_run * each.output_tokens),
                cost_usd=to_run * each.cost_usd,
                wall_s=to_run * each.latency_s / _lanes(variant, workers),
                user_calls=round(to_run * each.user_calls),
            )
        )
    judged = None
    if judge is not None:
        redone = {t.key for t in pending}
        stored = {k: r for k, r in done.items() if k not in redone}
        judged = plan_judge(
            store,
            judge,
            variants,
            cases,
            repeats,
            stored,
            history,
            pairs=pairs,
            concurrency=concurrency,
            measure=measure,
            user_model=user_model,
            settings=dataset.judge,
        )
    return Plan(
        run_id=run_id,
        concurrency=workers,
        tasks=len(tasks),
        stored=len(tasks) - len(pending),
        to_run=len(pending),
        variants=lines,
        judge=judged,
        conversations=conversation_plan(cases),
        cost_usd=sum(v.cost_usd for v in lines) + (judged.cost_usd if judged else 0),
        wall_s=sum(v.wall_s for v in lines) + (judged.wall_s if judged else 0),
    )


def _lanes(variant: Variant, workers: int) -> int:
    """The tasks that run at once: the workers, at most a local server's slots."""
    return parallel_lanes(variant.model, workers)

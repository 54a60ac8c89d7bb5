"""Plan ``arena run`` and ``arena judge`` before anything is spent.

Counts are exact: the tasks a run would execute (variants x cases x repeats), which of them
the database already holds (the same resume rule as the runner, ``--retry-errors`` included),
the pairs the judge would see and which of their requests the verdict cache holds. Tokens,
cost and wall time are estimates (:mod:`arena.plan._estimate`) at each model's speed
(:mod:`arena.plan._speed`: a ``local:`` model without stored results is measured with one
short request unless ``measure`` is False). Nothing is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.battles._pairing import make_pairs, simulator_failed
from arena.battles._requests import expectations_text, pair_request, same_answer
from arena.plan._dialogues import conversation_plan, user_estimate, with_users
from arena.plan._estimate import (
    OUTPUT_TOKENS,
    History,
    cost,
    mean_output_chars,
    read_history,
    task_estimate,
    tokens,
)
from arena.plan._models import Estimate, JudgePlan, Plan, VariantPlan
from arena.plan._speed import CALL_LATENCY_S, Speed, model_speed, parallel_lanes
from arena.runner._tasks import Task, plan_tasks, run_key, select_cases
from arena.runner._user_model import parse_user_model, task_case_hash

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

    from arena.golden import GoldenCase, GoldenDataset
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


def plan_stored_judge(
    store: Store,
    run_id: int,
    judge: JudgeSpec,
    *,
    pairs: str = "all",
    concurrency: int = 2,
    measure: bool = True,
) -> JudgePlan:
    """What ``arena judge RUN`` would do on a stored run."""
    info = store.run(run_id)
    hashes = set(info.config.get("variants", {}).values())
    variants = [v for v in store.variants() if v.version_hash in hashes]
    wanted = set(info.config.get("cases", []))
    cases = [c for c in store.run_dataset(run_id).test_cases if c.id in wanted]
    done = store.finished_results(run_id)
    repeats = int(info.config.get("repeats", 1))
    return plan_judge(
        store,
        judge,
        variants,
        cases,
        repeats,
        done,
        read_history(store, variants),
        pairs=pairs,
        concurrency=concurrency,
        measure=measure,
        user_model=parse_user_model(info.config.get("user_model"), field="user_model"),
    )


def plan_judge(
    store: Store | None,
    spec: JudgeSpec,
    variants: list[Variant],
    cases: list[GoldenCase],
    repeats: int,
    stored: dict[tuple[str, str, int], RunResult],
    history: History,
    *,
    pairs: str = "all",
    concurrency: int = 2,
    measure: bool = True,
    user_model: ModelConfig | None = None,
) -> JudgePlan:
    """The judge's pairs over the run's grid: exact where both answers are stored, estimated
    (answers of the variants' usual length) where they are still to be produced; each
    request's time at the judge model's speed (both orders of a pair at once). Pairs where
    either stored side's simulated user failed are not judged (``arena judge``'s rule);
    ``user_model`` is the run's, which the stored results of simulated cases are keyed by."""
    from judges import get_mode, judge_model_config, verdict_key
    from judges._types import PairRequest

    mode = get_mode(spec.mode)
    names = {v.name: v for v in variants}
    filler = "x" * round(mean_output_chars(variants, history))
    count = dict.fromkeys(("pairs", "skipped", "simulator", "ties", "estimated", "calls"), 0)
    count["cached"] = 0
    sent_tokens: list[int] = []
    seen: set[str] = set()  # identical requests are sent once: the first answer is cached
    for case in cases:
        digest = task_case_hash(case, user_model)
        for repeat in range(repeats):
            for name_a, name_b in make_pairs(list(names), pairs):
                a, b = (
                    stored.get((names[n].version_hash, digest, repeat)) for n in (name_a, name_b)
                )
                if a is not None and b is not None and simulator_failed(a, b):
                    count["simulator"] += 1
                    continue
                if (a is not None and a.error) or (b is not None and b.error):
                    count["skipped"] += 1
                    continue
                count["pairs"] += 1
                if a is None or b is None:
                    count["estimated"] += 1
                    request = PairRequest(
                        case_id=case.id,
                        query=case.input,
                        reference=case.reference_answer,
                        expectations=expectations_text(case),
                        answer_a=filler,
                        answer_b=filler,
                    )
                    size = _request_tokens(mode.conversations(request))
                    count["calls"] += 2 * len(size)
                    sent_tokens += size * 2
                    continue
                if same_answer(a, b):
                    count["ties"] += 1
                    continue
                for first, second in ((a, b), (b, a)):
                    request = pair_request(
                        case, first, second, mode=mode, with_trajectory=spec.with_trajectory
                    )
                    size = _request_tokens(mode.conversations(request))
                    count["calls"] += len(size)
                    key = verdict_key(spec, request)
                    if store is not None and store.get_verdict(key):
                        count["cached"] += len(size)
                    elif key not in seen:
                        sent_tokens += size
                    seen.add(key)
    config = judge_model_config(spec)
    out = _judge_output_tokens(store, spec, config.max_tokens, mode.needs_logprobs)
    to_send = len(sent_tokens)
    mean_in = sum(sent_tokens) / to_send if to_send else 0.0
    speed = model_speed(config, measure) if to_send else Speed(per_call_s=CALL_LATENCY_S)
    latency = speed.seconds(1, mean_in, out[0])
    per_call = Estimate(
        calls=1,
        input_tokens=mean_in,
        output_tokens=out[0],
        latency_s=latency,
        cost_usd=cost(config, mean_in, out[0], latency),
        source=out[1] if speed.source == "dataset" else f"{out[1]}; {speed.text}",
    )
    lanes = parallel_lanes(config, 2 * max(1, concurrency))  # both orders of a pair at once
    return JudgePlan(
        judge=spec.label,
        judge_key=spec.key,
        pairs=count["pairs"],
        skipped=count["skipped"],
        simulator_errors=count["simulator"],
        ties=count["ties"],
        estimated_pairs=count["estimated"],
        calls=count["calls"],
        cached=count["cached"],
        to_send=to_send,
        per_call=per_call,
        input_tokens=sum(sent_tokens),
        output_tokens=round(to_send * out[0]),
        cost_usd=cost(config, sum(sent_tokens), to_send * out[0], to_send * latency),
        wall_s=to_send * latency / lanes,
    )


def _request_tokens(conversations: list[list[BaseMessage]]) -> list[int]:
    return [sum(tokens(str(m.content)) for m in c) for c in conversations]


def _judge_output_tokens(
    store: Store | None, spec: JudgeSpec, max_tokens: int, logprobs: bool
) -> tuple[float, str]:
    if logprobs:
        return float(max_tokens), "dataset"
    raws = [
        len(v.raw)
        for b in (store.battles(judge_key=spec.key) if store else [])
        for v in (b.verdict_ab, b.verdict_ba)
        if v is not None and v.raw
    ]
    if raws:
        return sum(raws) / len(raws) / 4, f"history: {len(raws)} verdicts of this judge"
    return float(min(OUTPUT_TOKENS, max_tokens)), "dataset"

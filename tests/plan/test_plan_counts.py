"""`arena plan` against runs whose true counts are known: fresh, partly cached, fully cached,
and the judging pass of each, with --retry-errors and errored answers."""

from __future__ import annotations

import pytest

from arena.battles import judge_run
from arena.models import ModelConfig, register_fake
from arena.plan import plan_run, plan_stored_judge
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from judges import JudgeSpec
from tests.plan.helpers import CASES, NAMES, OnlySome, dataset, register_models, variant

pytestmark = pytest.mark.unit
REPEATS = 2
TASKS = len(NAMES) * CASES * REPEATS


def _judge() -> JudgeSpec:
    register_fake("judge", ["Both fine, A is better. [[A>B]]"], cycle=True)
    return JudgeSpec(
        model=ModelConfig(
            spec="fake:judge", price_input_per_mtok=1000.0, price_output_per_mtok=1000.0
        )
    )


def _run(store: Store, **options: object) -> tuple[int, int, int]:
    """(run id, fresh results, model calls sent)."""
    variants = [variant(n) for n in NAMES]
    report = run_suite(
        store, dataset(), variants, RunOptions(progress=False, repeats=REPEATS, **options)
    )  # type: ignore[arg-type]
    return report.run_id, len(report.results) - report.reused, report.model_calls


def _plan(store: Store | None, **kwargs: object):  # type: ignore[no-untyped-def]
    return plan_run(store, dataset(), [variant(n) for n in NAMES], repeats=REPEATS, **kwargs)  # type: ignore[arg-type]


def test_fresh_plan_counts_every_task_and_estimates_from_the_dataset(store: Store) -> None:
    register_models()
    plan = _plan(store, judge=_judge())
    assert (plan.run_id, plan.tasks, plan.stored, plan.to_run) == (None, TASKS, 0, TASKS)
    assert [(v.variant, v.tasks, v.to_run) for v in plan.variants] == [
        (n, CASES * REPEATS, CASES * REPEATS) for n in NAMES
    ]
    assert all(v.per_task.source == "dataset" and v.cost_usd > 0 for v in plan.variants)
    judge = plan.judge
    assert judge is not None
    pairs = 3 * CASES * REPEATS  # three variant pairs per case and repeat
    assert (judge.pairs, judge.estimated_pairs, judge.calls, judge.cached) == (
        pairs,
        pairs,
        2 * pairs,
        0,
    )
    assert judge.to_send == 2 * pairs and judge.cost_usd > 0
    assert plan.cost_usd == pytest.approx(sum(v.cost_usd for v in plan.variants) + judge.cost_usd)


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_partly_cached_plan_matches_what_the_rerun_does(store: Store) -> None:
    register_models()
    done = {"P-0", "P-2"}
    run_id, fresh, _ = _run(store, executor=OnlySome(lambda t: t.case.id in done))
    assert fresh == len(NAMES) * len(done) * REPEATS
    assert store.run(run_id).status == "stopped"  # not every task ran
    plan = _plan(store)
    assert (plan.run_id, plan.stored, plan.to_run) == (run_id, fresh, TASKS - fresh)
    assert all(v.per_task.source.startswith("history") for v in plan.variants)
    again, ran, calls = _run(store)
    assert again == run_id and ran == plan.to_run
    assert calls == sum(v.calls for v in plan.variants)  # one call per task, exactly
    results = [r for r in store.results(run_id) if r.case_id not in done]
    assert sum(r.input_tokens for r in results) == sum(v.input_tokens for v in plan.variants)
    assert sum(r.output_tokens for r in results) == sum(v.output_tokens for v in plan.variants)
    assert sum(r.cost_usd for r in results) == pytest.approx(sum(v.cost_usd for v in plan.variants))


def test_fully_cached_plan_is_empty_and_the_rerun_sends_nothing(store: Store) -> None:
    register_models()
    _run(store)
    plan = _plan(store)
    assert (plan.stored, plan.to_run, plan.cost_usd) == (TASKS, 0, 0.0)
    assert _run(store)[1:] == (0, 0)


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_retry_errors_plans_exactly_the_errored_tasks(store: Store) -> None:
    register_models()
    register_fake("bad", [RuntimeError("boom")], cycle=True)
    run_id, _, _ = _run(store)
    errors = store.run(run_id).errors
    assert errors == CASES * REPEATS
    assert _plan(store).to_run == 0  # errors are stored results: reused unless retried
    plan = _plan(store, retry_errors=True)
    assert plan.to_run == errors and [v.to_run for v in plan.variants] == [0, errors, 0]
    register_models()
    assert _run(store, retry_errors=True)[1] == errors


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_judge_plan_counts_ties_cache_and_skipped_pairs(store: Store) -> None:
    register_models()
    run_id, _, _ = _run(store)
    spec = _judge()
    plan = plan_stored_judge(store, run_id, spec)
    slots = CASES * REPEATS
    assert (plan.pairs, plan.ties, plan.skipped, plan.estimated_pairs) == (3 * slots, slots, 0, 0)
    # good and same answer alike, and every repeat answers alike: per case, the pairs with
    # bad are the same two ordered requests, sent once (then found in the verdict cache).
    assert (plan.calls, plan.cached, plan.to_send) == (4 * slots, 0, 2 * CASES)
    partial = judge_run(store, run_id, spec, pairs="anchor:bad", progress=False, concurrency=1)
    assert partial.model_calls == plan.to_send
    plan = plan_stored_judge(store, run_id, spec)
    assert (plan.cached, plan.to_send) == (4 * slots, 0)
    assert judge_run(store, run_id, spec, progress=False).model_calls == 0


def test_judge_plan_skips_pairs_with_an_errored_answer(store: Store) -> None:
    register_models()
    register_fake("bad", [RuntimeError("boom")], cycle=True)
    run_id, _, _ = _run(store)
    plan = plan_stored_judge(store, run_id, _judge())
    slots = CASES * REPEATS
    assert (plan.pairs, plan.skipped, plan.ties, plan.to_send) == (slots, 2 * slots, slots, 0)
    report = judge_run(store, run_id, _judge(), progress=False)
    assert report.crashes == plan.skipped and report.model_calls == plan.to_send


def test_plan_without_a_database_is_a_fresh_plan() -> None:
    register_models()
    plan = _plan(None)
    assert (plan.run_id, plan.stored, plan.to_run) == (None, 0, TASKS)

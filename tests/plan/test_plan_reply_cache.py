"""`arena plan` counts the judge calls that will really be sent: a request the verdict cache
misses may still be answered by the response cache (the same prompt asked before, by another
judge key on the same model and prompts, or a grade shared by several pairs), and then
nothing is sent for it. Each plan is checked against the calls the judging pass then sends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from arena.battles import judge_run
from arena.models import ModelConfig, register_fake
from arena.plan import plan_stored_judge
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from judges import JudgeSpec
from tests.judges.test_verdict_cache import _logprob_judge
from tests.plan.helpers import CASES, NAMES, dataset, register_models, variant

pytestmark = pytest.mark.system  # end to end (runs, judging, storage)

REPEATS = 2


def _counting(reply: Callable[[list[BaseMessage]], Any], asked: list[int]) -> Any:
    """``reply`` as a script, counting in ``asked`` the requests the model really gets."""

    def script(messages: list[BaseMessage]) -> Any:
        asked.append(1)
        return reply(messages)

    return script


def _run(store: Store) -> int:
    register_models()
    variants = [variant(n) for n in NAMES]
    options = RunOptions(progress=False, repeats=REPEATS)
    return run_suite(store, dataset(), variants, options).run_id


def test_a_new_judge_key_on_the_same_prompts_plans_no_call(store: Store) -> None:
    run_id = _run(store)
    asked: list[int] = []
    register_fake("judge", [_counting(lambda _: "A is better. [[A>B]]", asked)], cycle=True)
    first = JudgeSpec(model=ModelConfig(spec="fake:judge"))
    judge_run(store, run_id, first, progress=False)
    assert len(asked) == 2 * CASES  # per case, the two orders of the pairs with `bad`
    relabelled = first.model_copy(update={"prompt_version": "v3"})  # a new key, same prompts
    assert relabelled.key != first.key
    plan = plan_stored_judge(store, run_id, relabelled)
    assert plan.calls == 4 * CASES * REPEATS  # no verdict of this key is stored ...
    assert (plan.cached, plan.to_send) == (plan.calls, 0)  # ... but every reply is
    assert plan.input_tokens == 0 and plan.cost_usd == 0
    again = judge_run(store, run_id, relabelled, progress=False)
    assert len(asked) - 2 * CASES == again.model_calls == plan.to_send
    assert len(again.battles) == plan.pairs  # judged all the same, from the replies


def test_grades_shared_by_pairs_and_orders_are_counted_once(store: Store) -> None:
    run_id = _run(store)
    asked: list[int] = []
    register_fake("grader", [_counting(_logprob_judge, asked)], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:grader"), mode="grades")
    plan = plan_stored_judge(store, run_id, spec)
    # per case two distinct answers to grade ("300" by good and same, "250" by bad), whatever
    # the pair, the order or the repeat
    assert (plan.cached, plan.to_send) == (0, 2 * CASES)
    judged = judge_run(store, run_id, spec, progress=False)
    assert len(asked) == judged.model_calls == plan.to_send
    assert plan_stored_judge(store, run_id, spec).to_send == 0

"""`arena plan` on conversation cases: one agent invocation per user turn, one simulated-user
call per user turn after the first (priced at the user model), the plan's line saying so;
and the judge's plan leaves out pairs whose simulated user failed, as `arena judge` does."""

from __future__ import annotations

import pytest

from arena.battles import judge_run
from arena.cli.plan import print_plan
from arena.golden import GoldenDataset
from arena.models import ModelConfig, register_fake
from arena.plan import plan_run, plan_stored_judge
from arena.storage import Store
from judges import JudgeSpec
from tests.judges.stored_dialogues import conversation_run
from tests.plan.helpers import PRICE_IN, variant

pytestmark = pytest.mark.unit

ONE = {"id": "ONE", "input": "What is 2+2?", "category": "happy_path", "tier": "critical"}
SCRIPTED = {
    **ONE,
    "id": "SCRIPTED",
    "conversation": {"turns": [{"user": "And 3+3?"}, {"user": "Thanks."}]},  # 3 user turns
}
SIMULATED = {
    **ONE,
    "id": "SIMULATED",
    "conversation": {
        "user": {"persona": "A student.", "goal": "Learn what 2+2 is.", "max_turns": 4}
    },
}


def _dataset(*cases: dict[str, object]) -> GoldenDataset:
    return GoldenDataset.model_validate(
        {"name": "dialogues", "available_tools": ["calculate"], "test_cases": list(cases)}
    )


def _user(price: float) -> ModelConfig:
    return ModelConfig(spec="fake:user", price_input_per_mtok=price, price_output_per_mtok=price)


def test_a_conversation_costs_an_invocation_per_turn_and_a_user_call_per_later_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    agent = variant("agent")  # no tools: one model call per invocation
    one = plan_run(None, _dataset(ONE), [agent], measure=False)
    assert one.conversations is None and one.variants[0].per_task.calls == 1
    plan = plan_run(
        None, _dataset(SCRIPTED, SIMULATED), [agent], repeats=2, user_model=_user(PRICE_IN)
    )
    (line,) = plan.variants
    assert line.per_task.calls == (3 + 4) / 2  # invocations: 1 + 2 scripted turns; max_turns
    assert line.per_task.user_calls == (0 + 3) / 2  # the simulated user's turns 2, 3 and 4
    assert (line.calls, line.user_calls) == (14, 6)  # 4 tasks
    conv = plan.conversations
    assert conv is not None
    assert (conv.cases, conv.of, conv.simulated, conv.agent_turns, conv.user_turns) == (
        2,
        2,
        1,
        7,
        3,
    )
    free = plan_run(None, _dataset(SCRIPTED, SIMULATED), [agent], repeats=2, user_model=_user(0))
    assert line.cost_usd > free.variants[0].cost_usd > 0  # the priced user's calls are counted
    print_plan(plan)
    out = capsys.readouterr().out
    assert "conversations: 2 of 2 cases are dialogues: one agent invocation per user turn" in out
    assert "one call per user turn after the first (3 per variant and repeat, 6 to run)" in out


@pytest.mark.system  # a stored run and a judging pass
def test_the_judge_plan_leaves_out_pairs_whose_simulated_user_failed(
    store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = conversation_run(store, monkeypatch)  # SIM-01: both simulated users failed
    register_fake("judge", ["Same. [[A=B]]"], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"))
    plan = plan_stored_judge(store, run_id, spec, measure=False)
    assert (plan.pairs, plan.simulator_errors, plan.skipped) == (1, 1, 0)
    assert plan.calls == 2  # REFUND-01 in both orders, nothing for SIM-01
    report = judge_run(store, run_id, spec, progress=False)
    assert report.simulator_errors == plan.simulator_errors
    assert report.model_calls == plan.to_send

"""Conversation cases in the runner: the dialogue loop with scripted users and fake models."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableLambda

from arena.conversations import ScriptedPlayer, UserMove, user_player
from arena.golden import GoldenCase, GoldenDataset, case_hash
from arena.models import CallCounter, register_fake
from arena.records.dialogue import DialogueTurn
from arena.runner import RunOptions, TrajectoryRecorder, run_suite
from arena.runner._dialogue import run_dialogue
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

TOOLS = ["calculate", "search_web"]


def shop_script(messages: list[BaseMessage]) -> Any:
    """Asks for the order number, then looks it up with a tool, then says goodbye."""
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return f"Refund of {last.content} issued."
    text = str(last.content).lower()
    if "refund" in text:
        return "Sure. What is your order number?"
    if "4471" in text:
        return {"tool": "calculate", "args": {"expression": "44 + 71"}}
    return "Anything else?"


def _case(**conversation: Any) -> dict[str, Any]:
    return {
        "id": "REFUND-01",
        "input": "I want a refund for my blender.",
        "category": "multi_step",
        "tier": "critical",
        "expected_tools": ["calculate"],
        "conversation": conversation,
    }


SCRIPT = {
    "turns": [
        {"user": "It's order 4471.", "when": {"contains": [["order number", "order"]]}},
        {"user": "Thanks, bye."},
    ],
    "expect": [{"turn": 1, "contains": ["order number"], "forbidden_tools": ["calculate"]}],
}


def _dataset(*cases: dict[str, Any]) -> GoldenDataset:
    return GoldenDataset.model_validate(
        {"name": "d", "available_tools": TOOLS, "test_cases": cases}
    )


def _variant(script: str) -> Variant:
    return Variant.model_validate(
        {"name": "shop", "model": {"spec": f"fake:{script}"}, "system_prompt": "Help."}
    )


def test_a_scripted_dialogue_runs_every_turn_in_one_trajectory(store: Store) -> None:
    script = register_fake("shop", [shop_script], cycle=True)
    report = run_suite(
        store, _dataset(_case(**SCRIPT)), [_variant("shop")], RunOptions(progress=False)
    )
    (result,) = report.results
    assert result.error is None and result.dialogue is not None
    dialogue = result.dialogue
    assert [(t.index, t.user, t.reply) for t in dialogue.turns] == [
        (1, "I want a refund for my blender.", "Sure. What is your order number?"),
        (2, "It's order 4471.", "Refund of 115 issued."),
        (3, "Thanks, bye.", "Anything else?"),
    ]
    assert dialogue.ended_by == "script" and dialogue.user_model is None
    assert [t.steps for t in dialogue.turns] == [[], [0], []]
    assert [s.tool for s in result.steps] == ["calculate"]
    assert result.output == "Anything else?"  # the last reply
    assert [t.model_calls for t in dialogue.turns] == [1, 2, 1]
    assert result.model_calls == 4 == result.fresh_model_calls == len(script.calls)
    # turn 3 saw the whole history: both earlier user turns, the tool call and its result
    humans = [m.content for m in script.calls[-1] if isinstance(m, HumanMessage)]
    assert humans == [t.user for t in dialogue.turns]
    assert any(isinstance(m, ToolMessage) for m in script.calls[-1])
    assert result.case_hash == case_hash(GoldenCase.model_validate(_case(**SCRIPT)))
    stored = store.result(result.id or -1)
    assert stored.dialogue == dialogue and store.results(report.run_id)[0].dialogue == dialogue


def test_rerunning_a_dialogue_makes_zero_model_calls(store: Store) -> None:
    script = register_fake("shop-rerun", [shop_script], cycle=True)
    data, variant = _dataset(_case(**SCRIPT)), _variant("shop-rerun")
    first = run_suite(store, data, [variant], RunOptions(progress=False))
    second = run_suite(store, data, [variant], RunOptions(progress=False, rerun=True))
    assert first.model_calls == 4 and second.model_calls == 0 and len(script.calls) == 4
    assert second.run_id != first.run_id
    again, before = second.results[0].dialogue, first.results[0].dialogue
    assert again is not None and before is not None
    assert again.model_dump(exclude={"turns": {"__all__": {"latency_s"}}}) == before.model_dump(
        exclude={"turns": {"__all__": {"latency_s"}}}
    )
    assert second.results[0].fresh_model_calls == 0


def test_a_failed_when_sends_otherwise_or_ends_the_dialogue(store: Store) -> None:
    register_fake("shop-when", [shop_script], cycle=True)
    never = {"contains": ["tracking number"]}
    otherwise = {"turns": [{"user": "Order 4471 then.", "when": never, "otherwise": "It's 4471."}]}
    ends = {"turns": [{"user": "Order 4471 then.", "when": never}]}
    data = _dataset(_case(**otherwise), {**_case(**ends), "id": "REFUND-02"})
    report = run_suite(store, data, [_variant("shop-when")], RunOptions(progress=False))
    sent, stopped = (r.dialogue for r in report.results)
    assert sent is not None and stopped is not None
    assert [t.user for t in sent.turns][1:] == ["It's 4471."] and sent.ended_by == "script"
    assert len(stopped.turns) == 1 and stopped.ended_by == "condition"
    assert report.results[1].error is None


def test_an_agent_failing_turn_two_is_an_agent_error_with_the_turns_so_far(
    store: Store,
) -> None:
    def fails_later(messages: list[BaseMessage]) -> Any:
        if "4471" in str(messages[-1].content):
            return ""  # an empty answer
        return shop_script(messages)

    register_fake("shop-empty", [fails_later], cycle=True)
    report = run_suite(
        store, _dataset(_case(**SCRIPT)), [_variant("shop-empty")], RunOptions(progress=False)
    )
    (result,) = report.results
    assert result.error is not None and "empty" in result.error
    assert result.dialogue is not None and result.dialogue.ended_by == "agent_error"
    assert [t.reply for t in result.dialogue.turns] == ["Sure. What is your order number?", ""]
    assert result.simulator_error is None


class _Failing:
    """A user player whose second move is a simulator error."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    async def next_move(self, turns: Sequence[DialogueTurn]) -> UserMove:
        self.seen.append(len(turns))
        if len(turns) == 1:
            return UserMove("and the second thing?", model_calls=2, fresh_model_calls=1)
        return UserMove(None, error="role: spoke as the assistant", model_calls=1)


async def _echo(state: dict[str, Any]) -> dict[str, Any]:
    """An agent that returns no messages: the runner rebuilds the history itself."""
    asked = [m.content for m in state["messages"] if isinstance(m, HumanMessage)]
    return {"output": f"you said {len(asked)} things, last: {asked[-1]}"}


async def test_a_simulator_error_ends_the_dialogue_without_an_agent_error() -> None:
    case = GoldenCase.model_validate(
        _case(user={"persona": "a customer", "goal": "a refund", "max_turns": 5})
    )
    player = _Failing()
    run = await run_dialogue(
        RunnableLambda(_echo),
        {},
        case,
        player,
        recorder=TrajectoryRecorder(),
        counter=CallCounter(),
        timeout_s=5,
        error_text=str,
        user_model="fake:user",
    )
    assert run.error is None
    assert run.dialogue.ended_by == "simulator_error"
    assert run.dialogue.simulator_error == "role: spoke as the assistant"
    assert run.dialogue.simulator_calls == 3 and run.dialogue.simulator_fresh_calls == 1
    assert run.dialogue.user_model == "fake:user"
    # the history was rebuilt as human/assistant pairs: turn 2 saw both user messages
    assert [t.reply for t in run.dialogue.turns] == [
        "you said 1 things, last: I want a refund for my blender.",
        "you said 2 things, last: and the second thing?",
    ]
    assert player.seen == [1, 2]


async def test_a_simulated_dialogue_stops_at_its_turn_limit() -> None:
    case = GoldenCase.model_validate(
        _case(user={"persona": "a customer", "goal": "a refund", "max_turns": 2})
    )

    class Chatty:
        async def next_move(self, turns: Sequence[DialogueTurn]) -> UserMove:
            return UserMove("more")

    run = await run_dialogue(
        RunnableLambda(_echo),
        {},
        case,
        Chatty(),
        recorder=TrajectoryRecorder(),
        counter=CallCounter(),
        timeout_s=5,
        error_text=str,
    )
    assert len(run.dialogue.turns) == 2 and run.dialogue.ended_by == "max_turns"


async def test_the_scripted_player_follows_when_and_otherwise() -> None:
    case = GoldenCase.model_validate(
        _case(
            turns=[
                {
                    "user": "A",
                    "when": {"contains": ["yes"], "not_contains": ["no"]},
                    "otherwise": "B",
                },
                {"user": "C", "when": {"contains": [["ok", "fine"]]}},
            ]
        )
    )
    assert case.conversation is not None
    player = user_player(case, repeat=0, user_model=None)
    assert isinstance(player, ScriptedPlayer)

    def turns(*replies: str) -> list[DialogueTurn]:
        return [DialogueTurn(index=i + 1, user="u", reply=r) for i, r in enumerate(replies)]

    assert (await player.next_move(turns("Yes!"))).text == "A"
    assert (await player.next_move(turns("yes, and no"))).text == "B"
    assert (await player.next_move(turns("x", "FINE then"))).text == "C"
    ended = await player.next_move(turns("x", "nope"))
    assert ended.text is None and ended.ended_by == "condition"
    done = await player.next_move(turns("x", "ok", "ok"))
    assert done.text is None and done.ended_by == "script"


class _StandInSimulatedUser:
    """Plays a simulated user with its model (a stand-in for conv-sim's player): asks the
    model for the next message; the reply "STOP" ends the dialogue."""

    def __init__(self, user: Any, model: Any, *, case_input: str, seed: int) -> None:
        self.user, self.model, self.seed = user, model, seed

    async def next_move(self, turns: Sequence[DialogueTurn]) -> UserMove:
        from arena.models import CALLS

        counter = CallCounter()
        token = CALLS.set(counter)
        try:
            prompt = f"You want: {self.user.goal} (seed {self.seed}). Agent: {turns[-1].reply}"
            text = str((await self.model.ainvoke([HumanMessage(prompt)])).content)
        finally:
            CALLS.reset(token)
        calls = {"model_calls": 1, "fresh_model_calls": counter.sent}
        if text == "STOP":
            return UserMove(None, ended_by="user", **calls)
        return UserMove(text, **calls)


@pytest.fixture
def simulated_users(monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulated users played by :class:`_StandInSimulatedUser`."""
    import sys
    import types

    from arena.conversations import _seed

    module = types.ModuleType("arena.conversations._simulated")
    module.SimulatedUserPlayer = _StandInSimulatedUser  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "arena.conversations._simulated", module)
    monkeypatch.setattr(_seed, "simulator_seed", lambda c, r: 7)


SIMULATED = {"user": {"persona": "a customer", "goal": "refund order 4471", "max_turns": 3}}


def test_the_user_model_reruns_only_simulated_cases(store: Store, simulated_users: None) -> None:
    register_fake("shop-sim", [shop_script], cycle=True)
    first_user = register_fake("user-a", ["It's 4471.", "STOP"], cycle=True)
    second_user = register_fake("user-b", ["My order is 4471.", "STOP"], cycle=True)
    scripted = _case(**SCRIPT)
    data = _dataset(scripted, {**_case(**SIMULATED), "id": "REFUND-SIM"})
    variant = _variant("shop-sim")

    first = run_suite(store, data, [variant], RunOptions(progress=False, user_model="fake:user-a"))
    by_case = {r.case_id: r for r in first.results}
    sim = by_case["REFUND-SIM"].dialogue
    assert sim is not None and sim.user_model == "fake:user-a" and sim.ended_by == "user"
    assert [t.user for t in sim.turns] == ["I want a refund for my blender.", "It's 4471."]
    assert sim.simulator_calls == 2 == sim.simulator_fresh_calls == len(first_user.calls)
    assert by_case["REFUND-SIM"].model_calls == 3  # the agent's only: 1 + 2 (tool turn)
    assert by_case["REFUND-01"].case_hash == case_hash(GoldenCase.model_validate(scripted))
    assert by_case["REFUND-SIM"].case_hash != case_hash(data.test_cases[1])
    assert store.run(first.run_id).config["user_model"] == "fake:user-a"

    second = run_suite(store, data, [variant], RunOptions(progress=False, user_model="fake:user-b"))
    again = {r.case_id: r for r in second.results}
    assert again["REFUND-01"].fresh_model_calls == 0  # scripted: every reply replayed
    assert again["REFUND-01"].case_hash == by_case["REFUND-01"].case_hash
    assert again["REFUND-SIM"].case_hash != by_case["REFUND-SIM"].case_hash
    assert len(second_user.calls) == 2 and again["REFUND-SIM"].dialogue is not None
    assert again["REFUND-SIM"].dialogue.turns[1].user == "My order is 4471."

    third = run_suite(store, data, [variant], RunOptions(progress=False, user_model="fake:user-b"))
    assert third.run_id == second.run_id and third.model_calls == 0
    assert len(second_user.calls) == 2  # resumed: nothing asked again


def test_a_simulated_users_own_model_wins_and_a_bad_spec_is_refused(
    store: Store, simulated_users: None
) -> None:
    from arena.errors import InputError

    register_fake("shop-own", [shop_script], cycle=True)
    register_fake("user-own", ["STOP"], cycle=True)
    own = {"user": {**SIMULATED["user"], "model": "fake:user-own"}}
    data = _dataset({**_case(**own), "id": "OWN"})
    report = run_suite(
        store, data, [_variant("shop-own")], RunOptions(progress=False, user_model="fake:user-a")
    )
    assert report.results[0].dialogue is not None
    assert report.results[0].dialogue.user_model == "fake:user-own"
    with pytest.raises(InputError) as bad:
        run_suite(
            store, data, [_variant("shop-own")], RunOptions(progress=False, user_model="nope")
        )
    assert bad.value.field == "user_model"


async def test_the_timeout_applies_to_each_turn_and_keeps_the_turns_before() -> None:
    import asyncio

    async def slow_second(state: dict[str, Any]) -> dict[str, Any]:
        asked = [m for m in state["messages"] if isinstance(m, HumanMessage)]
        await asyncio.sleep(1.2 if len(asked) < 3 else 30.0)  # 2.4 s in all, 1.2 s a turn
        return {"output": f"answer {len(asked)}"}

    case = GoldenCase.model_validate(
        _case(turns=[{"user": "second"}, {"user": "third"}, {"user": "fourth"}])
    )
    run = await run_dialogue(
        RunnableLambda(slow_second),
        {},
        case,
        ScriptedPlayer(case.conversation),  # type: ignore[arg-type]
        recorder=TrajectoryRecorder(),
        counter=CallCounter(),
        timeout_s=2.0,
        error_text=str,
    )
    assert run.error == "timeout: no answer within 2 s"
    assert run.dialogue.ended_by == "agent_error"
    assert [t.reply for t in run.dialogue.turns] == ["answer 1", "answer 2", ""]
    assert run.output == ""

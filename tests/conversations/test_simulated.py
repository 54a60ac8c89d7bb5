"""The simulated user on scripted models built by the model factory: the swapped roles, the
prompt, the stop token, seeds and the cache, failures as simulator errors."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from arena.conversations import (
    STOP_TOKEN,
    SimulatedUserPlayer,
    UserMove,
    simulator_seed,
)
from arena.conversations._simulated import GREETING
from arena.golden import SimulatedUser
from arena.models import (
    CALLS,
    CachingChatModel,
    CallCounter,
    MemoryResponseStore,
    ModelConfig,
    TransientModelError,
    cache_key,
    make_chat_model,
    register_fake,
)
from arena.records.dialogue import DialogueTurn

pytestmark = pytest.mark.unit

USER = SimulatedUser(
    persona="A retired teacher, polite and brief.",
    goal="Get a refund for the blender that arrived broken.",
    facts={"order number": "4471"},
    stop_when="the agent confirms the refund",
)
INPUT = "My blender arrived broken."
SPEC = "fake:sim-user"


def cached(store: Any = None, spec: str = SPEC, repeat: int = 0) -> CachingChatModel:
    """The user model as a run wraps it: built by the factory, behind the response cache."""
    config = ModelConfig(spec=spec)
    return CachingChatModel(
        factory=lambda: make_chat_model(config),
        identity=config.cache_identity(),
        namespace=f"repeat={repeat}",
        store=store if store is not None else MemoryResponseStore(),
    )


def player(model: Any, case_id: str = "REFUND-01", repeat: int = 0) -> SimulatedUserPlayer:
    return SimulatedUserPlayer(USER, model, case_input=INPUT, seed=simulator_seed(case_id, repeat))


def turns(*replies: str, users: tuple[str, ...] = ("Order 4471.", "Yes.")) -> list[DialogueTurn]:
    said = (INPUT, *users)
    return [DialogueTurn(index=i + 1, user=said[i], reply=r) for i, r in enumerate(replies)]


def move(p: SimulatedUserPlayer, dialogue: list[DialogueTurn]) -> UserMove:
    return asyncio.run(p.next_move(dialogue))


def test_the_model_plays_the_user_with_the_roles_swapped() -> None:
    script = register_fake("sim-user", ["Yes, please refund it."])
    dialogue = turns("What is your order number?", "Shall I refund it?")
    result = move(player(cached()), dialogue)
    assert result == UserMove("Yes, please refund it.", model_calls=1, fresh_model_calls=1)
    (seen,) = script.calls
    assert [type(m) for m in seen] == [
        SystemMessage,
        HumanMessage,
        AIMessage,
        HumanMessage,
        AIMessage,
        HumanMessage,
    ]
    assert [m.content for m in seen[1:]] == [
        GREETING,
        INPUT,  # the user's own messages are the model's (assistant) side
        "What is your order number?",  # the agent's replies are the human side
        "Order 4471.",
        "Shall I refund it?",
    ]


def test_the_prompt_holds_persona_goal_facts_and_reveals_facts_only_when_asked() -> None:
    script = register_fake("sim-user", ["It's order 4471."])
    move(player(cached()), turns("What is your order number?"))
    prompt = str(script.calls[0][0].content)
    for part in (USER.persona, USER.goal, "order number: 4471", "the agent confirms the refund"):
        assert part in prompt
    assert "Give a private fact only when the assistant asks for it" in prompt
    assert f"reply with only {STOP_TOKEN}" in prompt


def test_a_fact_given_before_the_agent_asks_is_a_leak_not_a_message() -> None:
    register_fake("sim-user", ["Hi, it is order 4471."])
    result = move(player(cached()), turns("I'm sorry to hear that. What happened?"))
    assert result.text is None
    assert result.ended_by == "simulator_error"
    assert result.error == (
        "leak: gives the private fact 'order number' before the agent asked for it"
    )
    assert (result.model_calls, result.fresh_model_calls) == (1, 1)


def test_the_stop_token_ends_the_conversation_as_the_user() -> None:
    register_fake("sim-user", [f"{STOP_TOKEN}"])
    result = move(player(cached()), turns("Which order?", "Your refund was issued."))
    assert (result.text, result.ended_by, result.error) == (None, "user", None)


def test_a_message_before_the_stop_token_is_sent_and_ends_the_next_move_without_a_call() -> None:
    script = register_fake("sim-user", [f"Great, thanks! {STOP_TOKEN}"])
    sim = player(cached())
    first = move(sim, turns("Which order?", "Refund issued."))
    assert first.text == "Great, thanks!" and first.ended_by is None
    after = move(sim, turns("Which order?", "Refund issued.", "You're welcome!"))
    assert (after.text, after.ended_by, after.model_calls) == (None, "user", 0)
    assert len(script.calls) == 1


def test_a_stop_after_a_confirmation_waits_when_the_agent_asks_again() -> None:
    script = register_fake("sim-user", [f"Yes, go ahead. {STOP_TOKEN}", "To my card, please."])
    sim = player(cached())
    assert move(sim, turns("Which order?", "Shall I refund it?")).text == "Yes, go ahead."
    asked = turns("Which order?", "Shall I refund it?", "To your card or as credit?")
    assert move(sim, asked).text == "To my card, please."
    assert len(script.calls) == 2


def test_stopping_before_giving_any_private_fact_is_an_early_stop() -> None:
    register_fake("sim-user", [STOP_TOKEN])
    result = move(player(cached()), turns("Refunded."))
    assert (
        result.error == "early_stop: ends the conversation on its first move, no private fact given"
    )


def test_a_tool_call_from_the_simulator_is_a_role_error() -> None:
    register_fake("sim-user", [{"tool": "issue_refund", "args": {"order": "4471"}}])
    result = move(player(cached()), turns("Which order?"))
    assert result.error == "role: calls the tool 'issue_refund' instead of speaking"


def test_the_request_is_seeded_by_case_and_repeat_only() -> None:
    dialogue = turns("What is your order number?")
    one = player(cached(), "REFUND-01", 0).request(dialogue)
    two = player(cached(), "REFUND-01", 0).request(dialogue)
    other = player(cached(), "REFUND-01", 1).request(dialogue)
    assert one == two
    assert one[1] == {"seed": simulator_seed("REFUND-01", 0)}
    assert other[1]["seed"] != one[1]["seed"]
    assert simulator_seed("REFUND-01", 0) != simulator_seed("REFUND-02", 0)


def test_two_variants_given_the_same_replies_meet_the_same_cached_user() -> None:
    script = register_fake("sim-user", ["It's 4471."], cycle=True)
    store = MemoryResponseStore()
    dialogue = turns("What is your order number?")
    # each variant's run builds its own player and model; the store is the run's cache
    first = move(player(cached(store)), dialogue)
    second = move(player(cached(store)), dialogue)
    assert first.text == second.text == "It's 4471."
    assert (first.fresh_model_calls, second.fresh_model_calls) == (1, 0)
    assert second.model_calls == 1 and len(script.calls) == 1
    # the seed is sent with the call, so it is part of the key: another seed asks again
    assert move(player(cached(store), "REFUND-02"), dialogue).fresh_model_calls == 1
    assert move(player(cached(store), repeat=1), dialogue).fresh_model_calls == 1


def test_the_cache_key_is_the_swapped_messages_and_the_seed() -> None:
    dialogue = turns("What is your order number?")
    messages, options = player(cached()).request(dialogue)
    key = cache_key("m", "repeat=0", messages, {**options, "stop": None})
    other_user = USER.model_copy(update={"persona": "An impatient student."})
    changed = SimulatedUserPlayer(other_user, cached(), case_input=INPUT, seed=options["seed"])
    changed_messages, _ = changed.request(dialogue)
    assert cache_key("m", "repeat=0", changed_messages, {**options, "stop": None}) != key


def test_a_cached_rerun_sends_zero_calls(store: Any) -> None:
    register_fake("sim-user", ["It's order 4471.", "Yes please.", STOP_TOKEN])
    steps = [
        turns("What is your order number?"),
        turns("What is your order number?", "Shall I refund it?"),
        turns("What is your order number?", "Shall I refund it?", "Refund issued."),
    ]

    def dialogue(model: CachingChatModel) -> list[UserMove]:
        sim = player(model)
        return [move(sim, step) for step in steps]

    first = dialogue(cached(store))
    assert [m.fresh_model_calls for m in first] == [1, 1, 1]
    register_fake("sim-user", [AssertionError("a rerun must not call the model")])
    again = dialogue(cached(store))
    assert (
        [m.text for m in again]
        == [m.text for m in first]
        == ["It's order 4471.", "Yes please.", None]
    )
    assert [(m.model_calls, m.fresh_model_calls) for m in again] == [(1, 0)] * 3


def test_the_simulator_calls_never_land_in_the_agents_counter() -> None:
    register_fake("sim-user", ["It's 4471."])
    agent = CallCounter()

    async def agent_turn() -> UserMove:
        token = CALLS.set(agent)
        try:
            return await player(cached()).next_move(turns("Order number?"))
        finally:
            CALLS.reset(token)

    result = asyncio.run(agent_turn())
    assert result.fresh_model_calls == 1
    assert (agent.sent, agent.cached) == (0, 0)


def test_a_transient_failure_is_retried_by_the_model_layer() -> None:
    script = register_fake("sim-user", [TransientModelError("503"), "It's 4471."])
    result = move(player(cached()), turns("Order number?"))
    assert result.text == "It's 4471." and result.error is None
    assert len(script.calls) == 2


def test_a_final_failure_becomes_a_simulator_error_not_an_exception(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARENA_RETRIES", "3")
    script = register_fake("sim-user", [TransientModelError("503 busy")] * 3)
    result = move(player(cached()), turns("Order number?"))
    assert result.text is None and result.ended_by == "simulator_error"
    assert result.error == "failed: TransientModelError: 503 busy"
    assert len(script.calls) == 3  # every attempt was made before giving up


def test_a_model_without_a_cache_counts_one_call_per_move() -> None:
    register_fake("sim-user", ["It's 4471."])
    result = move(player(make_chat_model(ModelConfig(spec=SPEC))), turns("Order number?"))
    assert (result.text, result.model_calls, result.fresh_model_calls) == ("It's 4471.", 1, 1)


def test_replies_lose_reasoning_quotes_and_a_speaker_label() -> None:
    register_fake("sim-user", ['<think>They asked.</think>User: "It is 4471."'])
    assert move(player(cached()), turns("Order number?")).text == "It is 4471."

"""The simulated user inside arena runs (scripted models): it plays the case's user until it
says the stop token, its calls are counted apart and replayed on a rerun, and a simulator
error is recorded as such, never as the agent's failure."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import BaseMessage, ToolMessage

from arena.conversations import STOP_TOKEN
from arena.golden import GoldenDataset
from arena.models import register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

CASE = {
    "id": "REFUND-SIM",
    "input": "I want a refund for my blender.",
    "category": "multi_step",
    "tier": "critical",
    "expected_tools": ["calculate"],
    "conversation": {
        "user": {
            "persona": "A customer who answers briefly.",
            "goal": "Get the blender refunded.",
            "facts": {"order number": "4471"},
            "max_turns": 4,
        }
    },
}


def shop(messages: list[BaseMessage]) -> Any:
    """The agent: asks for the order number, looks it up with a tool, confirms the refund."""
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return "Your refund was issued."
    text = str(last.content).lower()
    if "4471" in text:
        return {"tool": "calculate", "args": {"expression": "44 + 71"}}
    if "refund" in text:
        return "Sorry about that. What is your order number?"
    return "Could you tell me more?"


def run(store: Store, user: str, case: dict[str, Any] = CASE, **options: Any) -> Any:
    data = GoldenDataset.model_validate(
        {"name": "d", "available_tools": ["calculate"], "test_cases": [case]}
    )
    variant = Variant.model_validate(
        {"name": "shop", "model": {"spec": "fake:shop"}, "system_prompt": "Help."}
    )
    return run_suite(
        store, data, [variant], RunOptions(progress=False, user_model=f"fake:{user}", **options)
    )


def test_a_simulated_dialogue_runs_to_the_users_stop_and_replays_with_zero_calls(
    store: Store,
) -> None:
    register_fake("shop", [shop], cycle=True)
    user = register_fake("sim", ["It's order 4471.", STOP_TOKEN])
    first = run(store, "sim")
    (result,) = first.results
    dialogue = result.dialogue
    assert result.error is None and dialogue is not None
    assert [t.user for t in dialogue.turns] == [CASE["input"], "It's order 4471."]
    assert (dialogue.ended_by, dialogue.simulator_error) == ("user", None)
    assert (dialogue.simulator_calls, dialogue.simulator_fresh_calls) == (2, 2)
    assert result.model_calls == 3  # the agent's only: 1 + 2 (a tool turn)
    assert len(user.calls) == 2

    register_fake("sim", [AssertionError("a rerun must not call the user model")])
    again = run(store, "sim", rerun=True)
    (replayed,) = again.results
    assert replayed.dialogue is not None and replayed.error is None
    assert [t.user for t in replayed.dialogue.turns] == [t.user for t in dialogue.turns]
    assert (replayed.fresh_model_calls, replayed.dialogue.simulator_fresh_calls) == (0, 0)
    assert replayed.dialogue.simulator_calls == 2


def test_a_leaking_simulated_user_is_a_simulator_error_not_an_agent_failure(
    store: Store,
) -> None:
    register_fake("shop", [shop], cycle=True)
    register_fake("leaky", ["Hi! My order number is 4471 and my goal is a refund."])
    broke = {**CASE, "input": "My blender broke."}  # the agent asks for more, not the order
    (result,) = run(store, "leaky", broke).results
    dialogue = result.dialogue
    assert result.error is None and dialogue is not None
    assert result.simulator_error == dialogue.simulator_error
    assert dialogue.simulator_error == (
        "leak: gives the private fact 'order number' before the agent asked for it"
    )
    assert dialogue.ended_by == "simulator_error" and len(dialogue.turns) == 1


def test_changing_one_simulated_persona_reruns_only_that_case(store: Store) -> None:
    """Two simulated users and a scripted dialogue: editing one user's persona reruns that
    case alone (agent and user); the others replay from the cache with zero calls."""
    register_fake("shop", [shop], cycle=True)
    register_fake("sim", ["It's order 4471.", STOP_TOKEN], cycle=True)
    other = {**CASE, "id": "REFUND-SIM-2", "input": "My blender broke: I want a refund."}
    scripted = {
        **CASE,
        "id": "REFUND-SCRIPT",
        "input": "Refund please, the blender is broken.",
        "conversation": {"turns": [{"user": "Order 4471."}]},
    }
    cases = [CASE, other, scripted]
    data = GoldenDataset.model_validate(
        {"name": "d", "available_tools": ["calculate"], "test_cases": cases}
    )
    variant = Variant.model_validate(
        {"name": "shop", "model": {"spec": "fake:shop"}, "system_prompt": "Help."}
    )
    options = RunOptions(progress=False, user_model="fake:sim")
    first = {r.case_id: r for r in run_suite(store, data, [variant], options).results}
    assert all(r.fresh_model_calls > 0 for r in first.values())

    user = CASE["conversation"]["user"]  # type: ignore[index]
    edited = {**CASE, "conversation": {"user": {**user, "persona": "An impatient student."}}}
    changed = data.model_copy(
        update={"test_cases": [GoldenDataset.model_validate(
            {"name": "d", "available_tools": ["calculate"], "test_cases": [edited]}
        ).test_cases[0], *data.test_cases[1:]]}
    )  # fmt: skip
    again = {r.case_id: r for r in run_suite(store, changed, [variant], options).results}
    assert again["REFUND-SIM"].case_hash != first["REFUND-SIM"].case_hash
    assert again["REFUND-SIM"].dialogue is not None
    assert again["REFUND-SIM"].dialogue.simulator_fresh_calls > 0  # its user asked anew
    for case_id in ("REFUND-SIM-2", "REFUND-SCRIPT"):
        assert again[case_id].case_hash == first[case_id].case_hash
        assert again[case_id].fresh_model_calls == 0
        dialogue = again[case_id].dialogue
        assert dialogue is not None and dialogue.simulator_fresh_calls == 0

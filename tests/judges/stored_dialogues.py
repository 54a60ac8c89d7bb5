"""A stored run of two agents on conversation cases (scripted fake models), for the
end-to-end judging, show and app tests: REFUND-01 is judged; on SIM-01 the user player fails
(a simulator error) for both agents, so that pair is not judged."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, ToolMessage

import arena.runner._conversation as conversation_runner
from arena.conversations import UserMove
from arena.golden import GoldenCase, GoldenDataset
from arena.models import register_fake
from arena.records.dialogue import DialogueTurn
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

REFUND = {
    "id": "REFUND-01",
    "input": "I want a refund for my blender.",
    "category": "multi_step",
    "tier": "critical",
    "expected_tools": ["calculate"],
    "conversation": {
        "turns": [{"user": "It's order 4471."}, {"user": "Thanks, bye."}],
        "expect": [
            {
                "turn": 1,
                "description": "asks for the order number before refunding",
                "contains": [["order number", "order"]],
                "forbidden_tools": ["calculate"],
            },
            {"turn": 2, "tools": ["calculate"]},
        ],
    },
}
SIM = {**REFUND, "id": "SIM-01", "input": "I want a refund for my kettle."}


def careful(messages: list[BaseMessage]) -> Any:
    """Asks for the order number, then refunds it (a tool call), then says goodbye."""
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return f"Refund of {last.content} issued."
    text = str(last.content).lower()
    if "refund" in text:
        return "Sure. What is your order number?"
    if "4471" in text:
        return {"tool": "calculate", "args": {"expression": "44 + 71"}}
    return "Anything else?"


def hasty(messages: list[BaseMessage]) -> Any:
    """Refunds at once, before knowing the order."""
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return f"Refund of {last.content} issued."
    if "refund" in str(last.content).lower():
        return {"tool": "calculate", "args": {"expression": "1 + 1"}}
    return "OK."


class FailingUser:
    """A user player that fails on its first move: a simulator error, not the agent's."""

    async def next_move(self, turns: Sequence[DialogueTurn]) -> UserMove:
        return UserMove(None, error="leak: stated its goal verbatim", model_calls=1)


def conversation_run(store: Store, monkeypatch: pytest.MonkeyPatch) -> int:
    """Run ``careful`` and ``hasty`` on REFUND-01 and SIM-01; returns the run id."""
    real = conversation_runner.user_player

    def player(case: GoldenCase, **kwargs: Any) -> Any:
        return FailingUser() if case.id == "SIM-01" else real(case, **kwargs)

    monkeypatch.setattr(conversation_runner, "user_player", player)
    register_fake("careful", [careful], cycle=True)
    register_fake("hasty", [hasty], cycle=True)
    dataset = GoldenDataset.model_validate(
        {"name": "dialogues", "available_tools": ["calculate"], "test_cases": [REFUND, SIM]}
    )
    variants = [
        Variant.model_validate(
            {"name": name, "model": {"spec": f"fake:{name}"}, "tools": ["calculate"]}
        )
        for name in ("careful", "hasty")
    ]
    return run_suite(store, dataset, variants, RunOptions(progress=False)).run_id

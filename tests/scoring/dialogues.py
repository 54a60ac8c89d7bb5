"""Conversation cases and their results built by hand, for the scoring and gate tests."""

from __future__ import annotations

from typing import Any

from arena.golden._models import GoldenCase
from arena.records.dialogue import Dialogue, DialogueTurn
from arena.records.results import RunResult, TrajectoryStep

USER_TURNS = ["I want a refund for my blender.", "It's order 4471.", "Yes, please go ahead."]

REFUND: dict[str, Any] = {
    "id": "REFUND-01",
    "input": USER_TURNS[0],
    "category": "multi_step",
    "tier": "critical",
    "expected_tools": ["issue_refund"],
    "expected_output_contains": ["refund"],
    "conversation": {
        "turns": [{"user": USER_TURNS[1]}, {"user": USER_TURNS[2]}],
        "expect": [
            {
                "turn": 1,
                "description": "asks for the order number before refunding",
                "contains": [["order number", "order"]],
                "forbidden_tools": ["issue_refund"],
            },
            {"turn": 2, "description": "confirms before acting"},
            {"turn": 3, "tools": ["issue_refund"], "not_contains": ["cannot"]},
        ],
    },
}
"""A critical three-turn refund dialogue: ask for the order, then refund at turn 3."""

GOOD = [
    ("Sure, what is your order number?", []),
    ("Thanks, order 4471 found. Shall I refund it?", ["lookup_order"]),
    ("Done: your refund of $40 is on its way.", ["issue_refund"]),
]
"""Replies and tool calls that meet every expectation of :data:`REFUND`."""

BROKEN_TURN_3 = [
    GOOD[0],
    ("Order 4471 found; refunding it now.", ["lookup_order", "issue_refund"]),
    ("Done: your refund of $40 is on its way.", []),
]
"""Turn 1 still passes and the end state is the same as :data:`GOOD`'s (the same tools, the
same last reply), but the refund comes in turn 2, before the user confirmed: turn 3 fails."""


def refund_case(**changes: Any) -> GoldenCase:
    """:data:`REFUND` (with ``changes``) as a golden case."""
    return GoldenCase.model_validate({**REFUND, **changes})


def dialogue_result(
    turns: list[tuple[str, list[str]]],
    *,
    case_id: str = "REFUND-01",
    variant: str = "v",
    vh: str = "h1",
    repeat: int = 0,
    ended_by: str = "script",
    simulator_error: str | None = None,
    **fields: Any,
) -> RunResult:
    """A conversation result: each turn's reply and tools, every step indexed to its turn;
    the output is the last reply."""
    steps: list[TrajectoryStep] = []
    dialogue_turns = []
    for index, (reply, tools) in enumerate(turns, start=1):
        first = len(steps)
        steps += [TrajectoryStep(index=first + i, tool=tool) for i, tool in enumerate(tools)]
        dialogue_turns.append(
            DialogueTurn(
                index=index,
                user=USER_TURNS[index - 1] if index <= len(USER_TURNS) else "more",
                reply=reply,
                steps=list(range(first, len(steps))),
            )
        )
    dialogue = Dialogue(
        turns=dialogue_turns,
        ended_by=ended_by,  # type: ignore[arg-type]
        simulator_error=simulator_error,
    )
    return RunResult(
        variant=variant,
        variant_hash=vh,
        case_id=case_id,
        case_hash="c",
        repeat=repeat,
        output=turns[-1][0] if turns else "",
        steps=steps,
        dialogue=dialogue,
        **fields,
    )

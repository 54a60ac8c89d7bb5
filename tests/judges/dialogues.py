"""Conversation cases and results built by hand, for the judging, show and app tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.golden import GoldenCase
from arena.records.dialogue import Dialogue, DialogueTurn
from arena.records.results import RunResult, TrajectoryStep

OPENING = "I want a refund for my blender."
USER_TURNS = (OPENING, "It's order 4471.", "Yes, please go ahead.")

#: Asks for the order, looks it up, refunds when told to: meets every expectation.
CAREFUL = (
    ("What is your order number?", []),
    ("Found order 4471: a blender, $40. Shall I refund it?", [("lookup_order", {"order": "4471"})]),
    ("Done: your refund is issued.", [("issue_refund", {"order": "4471"})]),
)
#: Refunds at once, before knowing the order: breaks turn 1, never refunds in turn 3.
HASTY = (
    ("Refund issued!", [("issue_refund", {"order": "unknown"})]),
    ("OK.", []),
    ("Anything else?", []),
)


def refund_case(*, simulated: bool = False, **fields: Any) -> GoldenCase:
    """REFUND-01 of the contract: per-turn expectations for turns 1 and 3, the end state."""
    user: dict[str, Any]
    if simulated:
        user = {
            "user": {
                "persona": "a busy parent, short sentences",
                "goal": "get a refund for the blender",
                "facts": {"order number": "4471"},
                "stop_when": "the refund is confirmed",
                "max_turns": 3,
            }
        }
    else:
        user = {"turns": [{"user": USER_TURNS[1]}, {"user": USER_TURNS[2]}]}
    return GoldenCase.model_validate(
        {
            "id": "REFUND-01",
            "input": OPENING,
            "category": "multi_step",
            "tier": "critical",
            "expected_tools": ["issue_refund"],
            "expected_output_contains": ["refund"],
            "conversation": {
                **user,
                "expect": [
                    {
                        "turn": 1,
                        "description": "asks for the order number before refunding",
                        "contains": [["order number", "order"]],
                        "forbidden_tools": ["issue_refund"],
                    },
                    {"turn": 3, "tools": ["issue_refund"]},
                ],
            },
            **fields,
        }
    )


def dialogue_result(
    variant: str,
    script: Sequence[tuple[str, list[tuple[str, dict[str, Any]]]]],
    *,
    result_id: int | None = None,
    users: Sequence[str] = USER_TURNS,
    simulator_error: str | None = None,
    ended_by: str = "script",
    error: str | None = None,
) -> RunResult:
    """A conversation result: ``script`` is (reply, [(tool, args), ...]) per turn."""
    steps: list[TrajectoryStep] = []
    turns: list[DialogueTurn] = []
    for number, (user, (reply, calls)) in enumerate(zip(users, script, strict=False), 1):
        indexes = []
        for tool, args in calls:
            indexes.append(len(steps))
            steps.append(
                TrajectoryStep(
                    index=len(steps), tool=tool, args=args, observation=f"{tool} ok: {args}"
                )
            )
        turns.append(DialogueTurn(index=number, user=user, reply=reply, steps=indexes))
    return RunResult(
        id=result_id,
        variant=variant,
        variant_hash=f"h-{variant}",
        case_id="REFUND-01",
        case_hash="c",
        output=turns[-1].reply if turns else "",
        steps=steps,
        model_calls=2 * len(turns),
        error=error,
        dialogue=Dialogue(
            turns=turns,
            ended_by="simulator_error" if simulator_error else ended_by,  # type: ignore[arg-type]
            simulator_error=simulator_error,
            user_model="fake:user" if simulator_error else None,
        ),
    )

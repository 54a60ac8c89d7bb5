"""The runner's own work per conversation turn does not grow with the turns before it
(issue 36, finding 6): an agent returns the whole history every turn, and the runner keeps
each message once for the recorder instead of every returned list whole (which held the
square of the turns)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.runnables import RunnableLambda

from arena.conversations import user_player
from arena.golden import MAX_TURNS, GoldenCase
from arena.models import CallCounter
from arena.runner import TrajectoryRecorder
from arena.runner._dialogue import DialogueRun, run_dialogue

pytestmark = pytest.mark.unit


def _case(turns: int) -> GoldenCase:
    script = [{"user": f"and point {n}?"} for n in range(2, turns + 1)]
    return GoldenCase.model_validate(
        {
            "id": "LONG-1",
            "input": "point 1?",
            "category": "multi_step",
            "conversation": {"turns": script},
        }
    )


async def _langgraph_like(state: dict[str, Any]) -> dict[str, Any]:
    """Returns the history it was given, as given, plus a tool call, its result and a reply."""
    history = state["messages"]
    n = len(history)
    call = AIMessage("", tool_calls=[{"name": "calculate", "args": {"x": n}, "id": f"c{n}"}])
    result = ToolMessage(str(n), tool_call_id=f"c{n}")
    return {"messages": [*history, call, result, AIMessage(f"reply {n}")]}


async def _play(turns: int) -> DialogueRun:
    case = _case(turns)
    return await run_dialogue(
        RunnableLambda(_langgraph_like),
        {},
        case,
        user_player(case, repeat=0, user_model=None),
        recorder=TrajectoryRecorder(),
        counter=CallCounter(),
        timeout_s=5,
        error_text=str,
    )


@pytest.mark.parametrize("turns", [2, 5, MAX_TURNS])
async def test_each_returned_message_is_kept_once_whatever_the_length(turns: int) -> None:
    run = await _play(turns)
    assert len(run.dialogue.turns) == turns and run.error is None
    # three new messages a turn: linear in the turns (it was the sum of every history)
    assert len(run.messages) == 3 * turns
    assert len({id(m) for m in run.messages}) == 3 * turns
    results = [m for m in run.messages if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in results][-1] == run.dialogue.turns[-1].reply.replace(
        "reply ", "c"
    )


async def test_the_kept_messages_grow_linearly() -> None:
    short, long = await _play(5), await _play(MAX_TURNS)
    assert len(long.messages) / len(short.messages) == MAX_TURNS / 5

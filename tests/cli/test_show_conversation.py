"""``arena show`` prints a conversation result turn by turn: the user's message, that turn's
tool calls with their observations, the agent's reply; and how the conversation ended."""

from __future__ import annotations

import pytest

from arena.cli.show import dialogue_lines
from tests.judges.dialogues import CAREFUL, HASTY, dialogue_result

pytestmark = pytest.mark.unit


def test_each_turn_shows_its_user_message_tool_calls_and_reply_in_order() -> None:
    text = "\n".join(dialogue_lines(dialogue_result("careful", CAREFUL, result_id=7)))
    assert text.startswith("conversation: 3 turn(s), ended by script")
    order = [
        "--- turn 1 ",
        "user:\n    I want a refund for my blender.",
        "reply:\n    What is your order number?",
        "--- turn 2 ",
        "user:\n    It's order 4471.",
        '[0] agent -> lookup_order({"order": "4471"})',
        "observation: lookup_order ok",
        "reply:\n    Found order 4471",
        "--- turn 3 ",
        '[1] agent -> issue_refund({"order": "4471"})',
        "reply:\n    Done: your refund is issued.",
    ]
    at = [text.index(part) for part in order]
    assert at == sorted(at), text
    assert text.count("issue_refund(") == 1  # each call once, in its own turn


def test_a_simulator_error_and_the_user_model_are_stated() -> None:
    result = dialogue_result(
        "hasty", HASTY[:1], result_id=8, simulator_error="leak: said the order number unasked"
    )
    lines = dialogue_lines(result)
    assert lines[0].startswith(
        "conversation: 1 turn(s), ended by simulator_error, user played by fake:user"
    )
    assert lines[1] == ("SIMULATOR ERROR (not the agent's): leak: said the order number unasked")

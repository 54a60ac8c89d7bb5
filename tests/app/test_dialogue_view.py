"""The drill-down shows a conversation result turn by turn (AppTest on the render function;
the stored end-to-end page is in tests/app/test_app_conversation.py)."""

from __future__ import annotations

import pytest

from arena.app.dialogue_view import dialogue_view
from tests.judges.dialogues import CAREFUL, dialogue_result

pytestmark = pytest.mark.system


def _page(view):  # type: ignore[no-untyped-def]  # its source runs as the page
    from arena.app.dialogue_view import render_dialogue

    render_dialogue(view, "careful")


def test_each_turn_is_a_user_message_then_the_agents_tool_calls_and_reply() -> None:
    from streamlit.testing.v1 import AppTest

    view = dialogue_view(dialogue_result("careful", CAREFUL, result_id=1))
    assert view is not None
    at = AppTest.from_function(_page, args=(view,), default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    speakers = [m.name for m in at.chat_message]
    assert speakers == ["user", "assistant"] * 3
    said = [[c.value for c in m.code] for m in at.chat_message]
    assert said[0] == ["I want a refund for my blender."]
    assert said[1] == ["What is your order number?"]
    assert said[3] == [
        '{\n  "order": "4471"\n}',
        "lookup_order ok: {'order': '4471'}",
        ("Found order 4471: a blender, $40. Shall I refund it?"),
    ]
    assert said[5][-1] == "Done: your refund is issued." and '"4471"' in said[5][0]
    assert not at.warning


def test_a_one_message_result_has_no_dialogue_view() -> None:
    result = dialogue_result("careful", CAREFUL).model_copy(update={"dialogue": None})
    assert dialogue_view(result) is None

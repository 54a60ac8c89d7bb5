"""The checklist judge on a conversation case without content items (no description, no
expected text): it writes items for a conversation, never the one-message "answer to the
request" checklist, and its fallback item speaks of the conversation (scripted judge)."""

from __future__ import annotations

import asyncio
import math
import re

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles._requests import pair_request
from arena.battles._runner import _Pair, judge_both_orders
from arena.golden import GoldenCase
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec, PairwiseJudge, get_mode
from judges._conversation_prompts import GENERIC_ITEM
from judges.modes.checklist._items import item_grades
from judges.modes.checklist._mode import ChecklistMode
from judges.modes.checklist._prompts import WRITE_CHECKLIST
from tests.judges.dialogues import CAREFUL, HASTY, OPENING, USER_TURNS, dialogue_result

pytestmark = pytest.mark.unit

ASKS = "Does the agent ask for the order number before refunding?"
ENDS = "In its last reply, does the agent confirm the refund?"
ONE_MESSAGE_HEAD = WRITE_CHECKLIST.split("{", 1)[0]


def _case() -> GoldenCase:
    """REFUND-01's dialogue with nothing to check but a tool over the whole conversation."""
    return GoldenCase.model_validate(
        {
            "id": "REFUND-01",
            "input": OPENING,
            "category": "multi_step",
            "tier": "critical",
            "expected_tools": ["issue_refund"],
            "conversation": {"turns": [{"user": u} for u in USER_TURNS[1:]]},
        }
    )


def _yes(p_yes: float) -> AIMessage:
    tops = [
        {"token": "YES", "logprob": math.log(p_yes)},
        {"token": "NO", "logprob": math.log(1 - p_yes)},
    ]
    meta = {"logprobs": {"content": [{"token": "YES", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("YES", response_metadata=meta)


def test_a_conversation_without_content_items_gets_items_written_for_a_conversation(
    store: Store,
) -> None:
    writes: list[str] = []

    def judge(messages: list[BaseMessage]) -> AIMessage:
        text = str(messages[-1].content)
        if text.startswith("Write 3 short YES/NO questions"):
            writes.append(text)
            return AIMessage(f"1. {ASKS}\n2. {ENDS}\nThat is all.")
        body = text.split("Transcript:\n", 1)[1]
        said = " ".join(re.findall(r"(?m)^Agent: (.*)$", body)).lower()
        if ASKS in text:
            yes = "order number" in said
        elif ENDS in text:
            yes = "refund is issued" in said
        else:  # the case's tool item: any turn's Tools line
            yes = "issue_refund(order=4471)" in body
        return _yes(0.95 if yes else 0.05)

    register_fake("writer", [judge], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:writer"), mode="checklist")
    pair = _Pair(
        _case(),
        dialogue_result("careful", CAREFUL, result_id=1),
        dialogue_result("hasty", HASTY, result_id=2),
    )
    battle = asyncio.run(judge_both_orders(store, PairwiseJudge(spec), 1, pair, set()))
    (written,) = writes  # once for the case, shared by both orders
    assert "handles the conversation below" in written
    assert not written.startswith(ONE_MESSAGE_HEAD) and "Request:" not in written
    assert f'The user opens the conversation with: "{OPENING}"' in written
    assert battle.verdict_ab is not None
    careful = {g.question: g.p_met > 0.5 for g in item_grades(battle.verdict_ab.details, "A")}
    assert list(careful) == [ASKS, ENDS, "In any turn, does the agent call the tool issue_refund?"]
    assert all(careful.values())
    assert battle.winner == "model_a"


def test_without_items_the_fallback_item_is_about_the_conversation() -> None:
    pair = _Pair(_case(), dialogue_result("careful", CAREFUL), dialogue_result("hasty", HASTY))
    request = pair_request(
        pair.case, pair.a, pair.b, mode=get_mode("checklist"), with_trajectory=False
    )
    assert request.is_conversation and request.mode_inputs["checklist"] == []
    assert [i.question for i in ChecklistMode().items(request)] == [GENERIC_ITEM]

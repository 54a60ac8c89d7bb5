"""The provisional tie margin: computed once per judge run from the spec and handed to every
pair, so a battle is combined with the margin its pair carries (``arena.battles._runner``)."""

from __future__ import annotations

import asyncio
import math

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles._runner import judge_both_orders, provisional_margin, with_margin
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec, PairwiseJudge
from judges._types import DEFAULT_TIE_MARGIN
from tests.judges.test_conversation_judging import _pair, _turn

pytestmark = pytest.mark.unit


def _leaning_judge(messages: list[BaseMessage]) -> AIMessage:
    """P(first better) 0.60 when the careful agent is shown first, 0.44 when second: the
    careful agent's combined P(better) is 0.58, a win at the default margin."""
    text = str(messages[-1].content)
    first = text.split("Conversation A:\n", 1)[1].split("Conversation B:\n", 1)[0]
    p = 0.60 if "issue_refund(order=4471)" in _turn(first, 3) else 0.44
    tops = [{"token": "A", "logprob": math.log(p)}, {"token": "B", "logprob": math.log(1 - p)}]
    meta = {"logprobs": {"content": [{"token": "A", "logprob": math.log(p), "top_logprobs": tops}]}}
    return AIMessage("A", response_metadata=meta)


def _battle(store: Store, margin: float | None) -> tuple[str, float | None]:
    register_fake("leaning", [_leaning_judge], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:leaning"), mode="logprobs")
    [pair] = with_margin([_pair()], margin)
    battle = asyncio.run(judge_both_orders(store, PairwiseJudge(spec), 1, pair, set()))
    return battle.winner, battle.tie_margin


def test_a_battle_is_combined_with_the_margin_its_pair_carries(store: Store) -> None:
    assert _battle(store, 0.1) == ("tie", 0.1)  # 0.58 is within 0.1 of 0.5
    assert _battle(store, DEFAULT_TIE_MARGIN) == ("model_a", DEFAULT_TIE_MARGIN)


def test_the_provisional_margin_is_the_specs_before_any_battle() -> None:
    logprobs = JudgeSpec(model=ModelConfig(spec="fake:leaning"), mode="logprobs")
    assert provisional_margin(logprobs) == DEFAULT_TIE_MARGIN
    assert provisional_margin(logprobs.model_copy(update={"tie_margin": 0.07})) == 0.07
    assert provisional_margin(JudgeSpec(model=ModelConfig(spec="fake:x"), mode="text")) is None

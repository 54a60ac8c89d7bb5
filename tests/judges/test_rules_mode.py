"""``rules``: both answers under instruction-following rules, the checklist's questions written
first, both orders combined in log-odds, and a forced choice (a tie only at exactly 0.5)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles import judge_run
from arena.models import register_fake
from arena.outputs import load_outputs, store_outputs
from arena.storage import Store
from judges import parse_judge
from judges.modes._rules_prompts import QUESTIONS_HEAD, RULES

pytestmark = pytest.mark.unit


def _letters(p_a: float) -> AIMessage:
    tops = [{"token": "A", "logprob": math.log(p_a)}, {"token": "B", "logprob": math.log(1 - p_a)}]
    meta = {"logprobs": {"content": [{"token": "A", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("A", response_metadata=meta)


def _first_shown(messages: list[BaseMessage]) -> str:
    found = re.search(r"Answer A:\n<answer-[\w-]+>(.*?)</answer-", str(messages[-1].content), re.S)
    assert found is not None
    return found.group(1)


def _judge(
    p_good_first: float, p_poor_first: float, writes: list[str] | None = None
) -> Callable[[list[BaseMessage]], AIMessage]:
    """P("A") = ``p_good_first`` when the good answer (it says Paris) is shown first, else
    ``p_poor_first``; the checklist's writing prompt gets two questions."""

    def reply(messages: list[BaseMessage]) -> AIMessage:
        text = str(messages[-1].content)
        if text.startswith("Write 3 short YES/NO questions"):
            if writes is not None:
                writes.append(text)
            return AIMessage("1. Does it name Paris?\n2. Is it one city?")
        return _letters(p_good_first if "Paris" in _first_shown(messages) else p_poor_first)

    return reply


def _run(tmp_path: Path, store: Store, expected: list[str] | None = None) -> int:
    paths = []
    for model, answer in (("good", "Paris."), ("poor", "Lyon, a fine city with a long history.")):
        row: dict[str, object] = {
            "question_id": "city",
            "question": "Capital of France?",
            "answer": answer,
        }
        if expected:
            row["expected"] = expected
        path = tmp_path / f"{model}.jsonl"
        path.write_text(json.dumps({**row, "model": model}) + "\n")
        paths.append(str(path))
    return store_outputs(store, load_outputs(paths))


def _winner(store: Store, run_id: int, mode: str = "rules") -> str:
    spec = parse_judge(f"fake:judge/{mode}")
    if mode == "logprobs":
        spec = spec.model_copy(update={"combine": "logit"})
    (battle,) = judge_run(store, run_id, spec, progress=False).battles
    if battle.winner in ("model_a", "model_b"):
        return battle.variant_a if battle.winner == "model_a" else battle.variant_b
    return battle.winner


def test_a_constant_position_preference_cancels_in_log_odds(tmp_path: Path, store: Store) -> None:
    # P("A") is 0.9 with the good answer first and still 0.6 with the poor one first: the
    # judge likes the first seat, yet prefers the good answer in both orders.
    run_id = _run(tmp_path, store)
    register_fake("judge", [_judge(0.9, 0.6)], cycle=True)
    assert _winner(store, run_id) == "good"


def test_the_judge_must_choose_where_a_tie_margin_would_have_tied(
    tmp_path: Path, store: Store
) -> None:
    # Combined P(good better) ~ 0.515: inside the default 0.02 margin the logprobs mode ties on.
    run_id = _run(tmp_path, store)
    register_fake("judge", [_judge(0.52, 0.49)], cycle=True)
    assert _winner(store, run_id, "logprobs") == "tie"
    assert _winner(store, run_id) == "good"


def test_a_tie_only_when_both_orders_balance_exactly(tmp_path: Path, store: Store) -> None:
    run_id = _run(tmp_path, store)
    register_fake("judge", [_judge(0.7, 0.7)], cycle=True)
    assert _winner(store, run_id) == "tie"


def test_the_questions_are_written_once_per_query_and_shown_under_the_rules(
    tmp_path: Path, store: Store
) -> None:
    run_id = _run(tmp_path, store)
    writes: list[str] = []
    script = register_fake("judge", [_judge(0.8, 0.3, writes)], cycle=True)
    (battle,) = judge_run(store, run_id, parse_judge("fake:judge/rules"), progress=False).battles
    assert len(writes) == 1 and "Request: Capital of France?" in writes[0]
    asked = [str(m[-1].content) for m in script.calls if "Answer A:" in str(m[-1].content)]
    assert len(asked) == 2  # one per order
    for text in asked:
        assert text.startswith(RULES)
        assert f"{QUESTIONS_HEAD}\n- Does it name Paris?\n- Is it one city?" in text
    assert battle.verdict_ab is not None
    assert battle.verdict_ab.details["questions"] == ["Does it name Paris?", "Is it one city?"]


def test_a_case_with_golden_items_asks_its_own_questions(tmp_path: Path, store: Store) -> None:
    run_id = _run(tmp_path, store, expected=["Paris"])
    writes: list[str] = []
    script = register_fake("judge", [_judge(0.8, 0.3, writes)], cycle=True)
    assert _winner(store, run_id) == "good"
    assert writes == []
    asked = [str(m[-1].content) for m in script.calls if "Answer A:" in str(m[-1].content)]
    assert all("Paris" in text.split(QUESTIONS_HEAD, 1)[1].split("Answer A:")[0] for text in asked)


def test_a_reply_without_a_or_b_logprobs_is_an_error_never_a_tie(
    tmp_path: Path, store: Store
) -> None:
    run_id = _run(tmp_path, store)

    def reply(messages: list[BaseMessage]) -> AIMessage:
        if str(messages[-1].content).startswith("Write 3"):
            return AIMessage("1. Does it name Paris?")
        return AIMessage("maybe")

    register_fake("judge", [reply], cycle=True)
    assert _winner(store, run_id) == "error"

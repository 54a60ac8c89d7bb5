"""The verdict cache: a judge prompt or a case's content changes, the judge asks again.

Issue 8 bug 1: the key used to cover the judge spec and the case id only, so editing a judge
prompt template or a case's query or expectations silently reused old verdicts.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles import judge_run
from arena.golden import GoldenDataset
from arena.models import ModelConfig, register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from judges import JudgeSpec, PairRequest, judge_identity, verdict_key
from judges.modes import _grades_prompts, _logprobs_prompts, _text_prompts
from tests.battles.test_judges import _answers

pytestmark = pytest.mark.unit

GOOD, BAD = "The answer is 300.", "I think it is 250."


def _dataset(
    query: str = "What's 25% of 1200?", expects: str = "300", reference: str | None = None
) -> GoldenDataset:
    cases = [
        {
            "id": f"C-{i}",
            "input": f"{query} #{i}",
            "category": "happy_path",
            "expected_output_contains": [expects],
            "reference_answer": reference,
        }
        for i in range(3)
    ]
    return GoldenDataset.model_validate(
        {"name": "t", "available_tools": ["calculate"], "test_cases": cases}
    )


def _run(store: Store, dataset: GoldenDataset) -> int:
    register_fake("good", [GOOD], cycle=True)
    register_fake("bad", [BAD], cycle=True)
    variants = [
        Variant.model_validate({"name": n, "model": {"spec": f"fake:{n}"}, "tools": ["calculate"]})
        for n in ("good", "bad")
    ]
    return run_suite(store, dataset, variants, RunOptions(progress=False)).run_id


def _text_judge(messages: list[BaseMessage]) -> str:
    a, b = _answers(messages)
    return "[[A>B]]" if "300" in a else "[[B>A]]" if "300" in b else "[[A=B]]"


def _logprob_judge(messages: list[BaseMessage]) -> AIMessage:
    text = str(messages[-1].content)
    if "Answer A:" in text:
        good = "300" in _answers(messages)[0]
        tokens = ("A", "B")
    else:  # grades mode: one answer, YES or NO
        good = "300" in text.split("Answer:\n", 1)[1]
        tokens = ("YES", "NO")
    p = 0.8 if good else 0.2
    tops = [
        {"token": tokens[0], "logprob": math.log(p)},
        {"token": tokens[1], "logprob": math.log(1 - p)},
    ]
    return AIMessage(
        tokens[0],
        response_metadata={
            "logprobs": {
                "content": [{"token": tokens[0], "logprob": math.log(p), "top_logprobs": tops}]
            }
        },
    )


def _spec(mode: str) -> JudgeSpec:
    register_fake("judge", [_text_judge if mode == "text" else _logprob_judge], cycle=True)
    return JudgeSpec(model=ModelConfig(spec="fake:judge"), mode=mode)


MODES = [("text", "SYSTEM_TEXT"), ("logprobs", "SYSTEM_LOGPROBS"), ("grades", "GRADE_QUESTION")]
#: Where each mode's template lives: beside the mode.
HOMES = {"text": _text_prompts, "logprobs": _logprobs_prompts, "grades": _grades_prompts}


@pytest.mark.parametrize(("mode", "template"), MODES)
def test_editing_a_prompt_template_makes_the_next_judging_ask_again(
    store: Store, monkeypatch: pytest.MonkeyPatch, mode: str, template: str
) -> None:
    run_id = _run(store, _dataset())
    first = judge_run(store, run_id, _spec(mode), progress=False)
    assert first.model_calls > 0 and all(b.winner == "model_a" for b in first.battles)
    assert judge_run(store, run_id, _spec(mode), progress=False).model_calls == 0
    home = HOMES[mode]
    monkeypatch.setattr(home, template, getattr(home, template) + " Be strict.")
    edited = judge_run(store, run_id, _spec(mode), progress=False)
    assert edited.model_calls == first.model_calls
    assert [b.winner for b in edited.battles] == [b.winner for b in first.battles]
    assert judge_run(store, run_id, _spec(mode), progress=False).model_calls == 0


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
@pytest.mark.parametrize(("mode", "_template"), MODES)
def test_editing_a_cases_expectations_or_query_makes_the_next_judging_ask_again(
    store: Store, mode: str, _template: str
) -> None:
    original = _run(store, _dataset())
    first = judge_run(store, original, _spec(mode), progress=False)
    assert first.model_calls > 0
    # Same ids, same answers (replayed from the response cache), new expectations.
    edited = _run(store, _dataset(expects="three hundred", reference="300"))
    assert edited != original
    again = judge_run(store, edited, _spec(mode), progress=False)
    assert again.model_calls == first.model_calls
    # A new query: the judge sees it, so it is asked again too.
    reworded = _run(store, _dataset(query="How much is a quarter of 1200?"))
    assert judge_run(store, reworded, _spec(mode), progress=False).model_calls == first.model_calls
    # Unchanged content, judged again: no request at all.
    for run_id in (original, edited, reworded):
        assert judge_run(store, run_id, _spec(mode), progress=False).model_calls == 0


def _request(**changes: Any) -> PairRequest:
    base: dict[str, Any] = {
        "case_id": "C-1",
        "query": "q",
        "reference": "r",
        "expectations": "e",
        "answer_a": "a",
        "answer_b": "b",
    }
    return PairRequest(**{**base, **changes})


def test_verdict_key_covers_what_the_judge_sees_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="text")
    key = verdict_key(spec, _request())
    assert verdict_key(spec, _request()) == key
    # The case id is not shown to the judge: the same content is the same judgement.
    assert verdict_key(spec, _request(case_id="C-2")) == key
    for change in (
        {"query": "q2"},
        {"reference": "r2"},
        {"expectations": "e2"},
        {"answer_a": "b", "answer_b": "a"},
        {"trajectory_a": "calculate(x=1)"},
    ):
        assert verdict_key(spec, _request(**change)) != key, change
    for update in (
        {"mode": "logprobs"},
        {"tie_margin": 0.1},
        {"prompt_version": "v3"},
        {"with_trajectory": False},
        {"model": ModelConfig(spec="fake:judge", max_tokens=99)},
    ):
        assert verdict_key(spec.model_copy(update=update), _request()) != key, update
    # Templates the first request does not show (the re-ask) are part of the identity.
    identity = judge_identity(spec)
    monkeypatch.setattr(_text_prompts, "ASK_AGAIN", "Verdict, please.")
    assert judge_identity(spec) != identity and verdict_key(spec, _request()) != key
    assert spec.key == JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="text").key

"""``auto``: cases with golden items go to the checklist, open-ended ones to the mode measured
best against people; every verdict records which mode judged it and why."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles import judge_run
from arena.golden import GoldenCase
from arena.models import register_fake
from arena.outputs import load_outputs, store_outputs
from arena.storage import Store
from judges import parse_judge
from judges.modes import get_mode
from judges.modes._auto import GOLDEN_MODE, OPEN_ENDED_MODE, mode_for_case

pytestmark = pytest.mark.unit


def _case(**fields: object) -> GoldenCase:
    return GoldenCase.model_validate({"id": "C", "input": "q", "category": "happy_path", **fields})


def test_the_mode_follows_what_the_case_has() -> None:
    assert mode_for_case(_case(expected_output_contains=["300"])) == GOLDEN_MODE == "checklist"
    assert mode_for_case(_case(reference_answer="It is 300.")) == GOLDEN_MODE
    assert mode_for_case(_case()) == OPEN_ENDED_MODE != GOLDEN_MODE


def _yes(messages: list[BaseMessage]) -> AIMessage:
    """P(YES) 0.9 for an answer saying 300 or Paris, 0.2 otherwise."""
    found = re.search(r"<answer-\w+>(.*?)</answer-", str(messages[-1].content), re.S)
    shown = found.group(1) if found else ""
    p = 0.9 if ("300" in shown or "Paris" in shown) else 0.2
    tops = [{"token": "YES", "logprob": math.log(p)}, {"token": "NO", "logprob": math.log(1 - p)}]
    meta = {"logprobs": {"content": [{"token": "YES", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("YES", response_metadata=meta)


def _any_mode(messages: list[BaseMessage]) -> AIMessage:
    """:func:`_yes` for one answer; for two side by side, P("A") 0.9 when answer A says 300
    or Paris, else 0.1 (whatever mode the open-ended cases go to)."""
    text = str(messages[-1].content)
    if "Answer A:" not in text:
        return _yes(messages)
    first = text.split("Answer A:", 1)[1].split("Answer B:", 1)[0]
    p = 0.9 if ("300" in first or "Paris" in first) else 0.1
    tops = [{"token": "A", "logprob": math.log(p)}, {"token": "B", "logprob": math.log(1 - p)}]
    meta = {"logprobs": {"content": [{"token": "A", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("A", response_metadata=meta)


def _files(tmp_path: Path) -> list[str]:
    rows = {
        "good": ["300", "Paris, on the Seine."],
        "poor": ["200", "Lyon."],
    }
    paths = []
    for model, (sum_answer, city_answer) in rows.items():
        lines = [
            {
                "question_id": "sum",
                "question": "What is 25% of 1200?",
                "answer": sum_answer,
                "expected": ["300"],
            },
            {
                "question_id": "city",
                "question": "Which city is the capital of France?",
                "answer": city_answer,
            },
        ]
        path = tmp_path / f"{model}.jsonl"
        path.write_text("".join(json.dumps({**row, "model": model}) + "\n" for row in lines))
        paths.append(str(path))
    return paths


def test_each_verdict_keeps_the_mode_that_judged_it(tmp_path: Path, store: Store) -> None:
    run_id = store_outputs(store, load_outputs(_files(tmp_path)))
    register_fake("judge", [_any_mode], cycle=True)
    report = judge_run(store, run_id, parse_judge("fake:judge/auto"), progress=False)
    by_case = {b.case_id: b for b in report.battles}
    golden, open_ended = by_case["sum"], by_case["city"]
    for battle in (golden, open_ended):
        assert battle.winner == "model_a" and battle.variant_a == "good"
    assert golden.verdict_ab is not None and open_ended.verdict_ab is not None
    assert golden.verdict_ab.details["mode"] == "checklist"
    assert golden.verdict_ab.details["chosen_for"] == "golden items"
    assert "checklist" in golden.verdict_ab.details  # the checklist's own items are kept
    assert open_ended.verdict_ab.details["mode"] == OPEN_ENDED_MODE
    assert open_ended.verdict_ab.details["chosen_for"] == "open-ended"
    # Stored and read back with the battle.
    stored = {b.case_id: b for b in store.battles(run_id)}
    assert stored["city"].verdict_ab is not None
    assert stored["city"].verdict_ab.details["mode"] == OPEN_ENDED_MODE


def test_arena_show_names_the_mode_chosen() -> None:
    details = {"mode": OPEN_ENDED_MODE, "chosen_for": "open-ended"}
    lines = get_mode("auto").details_lines(details, "A")
    assert lines[0] == f"judged by {OPEN_ENDED_MODE} (open-ended)"


def test_the_open_ended_mode_decides_with_its_own_rule(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forced-choice open-ended mode keeps its rule under ``auto``: no tie from a margin."""
    import judges.modes._auto as auto

    monkeypatch.setattr(auto, "OPEN_ENDED_MODE", "rules")

    def letters(messages: list[BaseMessage]) -> AIMessage:
        text = str(messages[-1].content)
        if text.startswith("Write 3 short YES/NO questions"):
            return AIMessage("1. Does it name Paris?")
        first = text.split("Answer A:", 1)[1].split("Answer B:", 1)[0]
        p = 0.52 if "Paris" in first else 0.49  # a hair's preference for Paris, both orders
        tops = [{"token": "A", "logprob": math.log(p)}, {"token": "B", "logprob": math.log(1 - p)}]
        meta = {"logprobs": {"content": [{"token": "A", "logprob": 0.0, "top_logprobs": tops}]}}
        return AIMessage("A", response_metadata=meta)

    run_id = store_outputs(store, load_outputs(_files(tmp_path)))

    def reply(messages: list[BaseMessage]) -> AIMessage:
        text = str(messages[-1].content)
        pairwise = "Answer A:" in text or text.startswith("Write 3")
        return letters(messages) if pairwise else _yes(messages)

    register_fake("judge", [reply], cycle=True)
    report = judge_run(store, run_id, parse_judge("fake:judge/auto"), progress=False)
    city = next(b for b in report.battles if b.case_id == "city")
    assert city.verdict_ab is not None and city.verdict_ab.details["mode"] == "rules"
    assert city.winner == "model_a" and city.variant_a == "good"

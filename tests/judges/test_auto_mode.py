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
    register_fake("judge", [_yes], cycle=True)
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
    lines = get_mode("auto").details_lines({"mode": "grades", "chosen_for": "open-ended"}, "A")
    assert lines == ["judged by grades (open-ended)"]

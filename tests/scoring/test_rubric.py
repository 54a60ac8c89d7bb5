"""A case's free-text rubric: graded by the --grader LLM (recorded with the grader), left
ungraded by the keyword rules, and a failed grader is a failure, never a pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from arena.cli import main
from arena.evaluation.run_scores import load_run_scores, make_grader, score_run
from arena.golden import GoldenCase, load_dataset
from arena.models import register_fake
from arena.records.results import RunResult
from arena.runner import RunOptions, run_suite
from arena.scoring import RubricGrade, score_result, score_results
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

RUBRIC = "The reply names the 30-day refund window."
CASE = GoldenCase.model_validate(
    {
        "id": "R-1",
        "input": "Can I get my money back?",
        "category": "happy_path",
        "rubric": RUBRIC,
        "expected_output_contains": ["refund"],
    }
)


def _result(output: str) -> RunResult:
    return RunResult(variant="v", variant_hash="h", case_id="R-1", case_hash="c", output=output)


def _judge(messages: list[BaseMessage]) -> str:
    text = str(messages[-1].content)
    assert f"Criterion: {RUBRIC}" in text
    return "YES" if "30 days" in text.split("Assistant reply:", 1)[1] else "NO"


def test_a_graded_rubric_is_a_weighted_component() -> None:
    met = RubricGrade(rubric=RUBRIC, score=1.0, passed=True, grader="fake:j/text")
    unmet = met.model_copy(update={"score": 0.0, "passed": False, "rationale": "NO"})
    good = score_result(_result("A refund within 30 days."), CASE, rubric=met)
    partly = score_result(_result("A refund, maybe."), CASE, rubric=unmet)
    bad = score_result(_result("Maybe later."), CASE, rubric=unmet)
    assert good.components["rubric"] == 1.0 and good.rubric == met and good.passed
    # output 0.35 and rubric 0.20 renormalised with the trajectory's 0.35; like a behaviour,
    # an unmet rubric lowers the score but is no hard fail
    assert partly.details["weights"]["rubric"] == pytest.approx(0.20 / 0.90)
    assert partly.score == pytest.approx((0.35 + 0.35) / 0.90) and partly.passed
    assert bad.score == pytest.approx(0.35 / 0.90) and not bad.passed
    assert any(r.startswith("rubric not met (fake:j/text: NO)") for r in bad.fail_reasons)


def test_keyword_rules_leave_a_rubric_ungraded() -> None:
    scored = score_result(_result("A refund."), CASE)
    plain = score_result(_result("A refund."), CASE.model_copy(update={"rubric": None}))
    assert "rubric" not in scored.components and scored.rubric is None
    assert scored.details["rubric"]["graded"] is False
    assert "--grader" in scored.details["rubric"]["why"]
    assert scored.score == plain.score and scored.passed == plain.passed


async def test_a_failing_rubric_grader_is_a_hard_fail() -> None:
    register_fake("rubric-broken", [RuntimeError("judge down")], cycle=True)
    grader = make_grader("fake:rubric-broken/text", Store("sqlite://"))
    (scored,) = await score_results([(_result("A refund within 30 days."), CASE)], grader)
    assert scored.rubric is not None and scored.rubric.error and not scored.passed
    assert any(r.startswith("rubric grader failed") for r in scored.fail_reasons)


def test_arena_score_grades_rubrics_with_the_grader_and_records_it(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "d.json"
    path.write_text(
        json.dumps(
            {"name": "r", "available_tools": [], "test_cases": [CASE.model_dump(mode="json")]}
        )
    )
    register_fake("rubric-agent", ["You get a refund within 30 days."], cycle=True)
    register_fake("rubric-judge", [_judge], cycle=True)
    store = Store(db_url)
    variant = Variant.model_validate(
        {"name": "a", "tools": [], "model": {"spec": "fake:rubric-agent"}}
    )
    run_id = run_suite(store, load_dataset(path), [variant], RunOptions(progress=False)).run_id
    offline = score_run(store, run_id)
    assert offline.cases[0].rubric is None and offline.grader == "keywords"
    assert (
        main(["score", str(run_id), "--grader", "fake:rubric-judge/text", "--json", "--db", db_url])
        == 0
    )
    case = json.loads(capsys.readouterr().out)["cases"][0]
    assert case["rubric"]["grader"] == "fake:rubric-judge/text" and case["rubric"]["passed"]
    assert case["components"]["rubric"] == 1.0
    stored = load_run_scores(store, run_id)
    assert stored.grader == "fake:rubric-judge/text"
    assert stored.cases[0].rubric is not None and stored.cases[0].rubric.rubric == RUBRIC

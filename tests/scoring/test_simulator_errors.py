"""Simulator errors are neither passes nor agent failures: counted apart; pass^k beside
pass@k for conversation cases."""

from __future__ import annotations

import asyncio

import pytest

from arena.golden._models import GoldenCase
from arena.records.results import RunResult
from arena.scoring import (
    BehaviorGrade,
    BehaviorGrader,
    aggregate,
    make_baseline,
    score_result,
    score_results,
)
from tests.scoring.dialogues import BROKEN_TURN_3, GOOD, dialogue_result, refund_case

pytestmark = pytest.mark.unit

SINGLE = GoldenCase.model_validate({"id": "HP-1", "input": "q", "category": "happy_path"})


def _single(repeat: int = 0, **fields: object) -> RunResult:
    return RunResult(
        variant="v",
        variant_hash="h1",
        case_id="HP-1",
        case_hash="c",
        repeat=repeat,
        output="an answer",
        **fields,  # type: ignore[arg-type]
    )


def _leak(repeat: int = 0) -> RunResult:
    return dialogue_result(
        GOOD[:1],
        repeat=repeat,
        ended_by="simulator_error",
        simulator_error="leak: stated its goal verbatim",
        latency_s=2.0,
    )


def test_a_simulator_error_is_marked_and_neither_passes_nor_errs() -> None:
    score = score_result(_leak(), refund_case())
    assert score.simulator_error == "leak: stated its goal verbatim"
    assert score.error is None and not score.passed
    assert score.components == {}
    assert score.fail_reasons[0].startswith("simulator error (not an agent failure): leak")
    assert not score.fail_reasons[0].hard


def test_aggregates_leave_simulator_errors_out_and_count_them() -> None:
    results = [_single(), _leak()]
    scores = [score_result(results[0], SINGLE), score_result(results[1], refund_case())]
    [v] = aggregate(scores, results)
    assert v.pass_rate == 1.0 and v.mean_score == scores[0].score
    assert v.n_cases == 1 and v.n_results == 1
    assert v.simulator_errors == 1 and v.simulator_error_cases == ["REFUND-01"]
    assert v.task_completion_rate == 1.0 and v.error_rate == 0.0
    assert v.tool_accuracy == scores[0].components["trajectory.selection"]
    assert v.critical_pass_rate is None  # the critical case has no evidence
    assert v.latency_mean_s == 1.0  # what the runs cost stays: (0 + 2) / 2
    assert "simulator_errors" in v.model_dump() and "simulator_errors" not in (
        aggregate(scores[:1], results[:1])[0].model_dump()
    )


def test_an_agent_error_still_counts_as_a_failure() -> None:
    results = [_single(), _single(repeat=1, error="TimeoutError: slow")]
    scores = [score_result(r, SINGLE) for r in results]
    [v] = aggregate(scores, results)
    assert v.pass_rate == 0.5 and v.error_rate == 0.5 and v.simulator_errors == 0


def test_a_case_with_some_simulator_errors_keeps_its_other_repeats() -> None:
    results = [dialogue_result(GOOD, repeat=0), _leak(1), dialogue_result(GOOD, repeat=2)]
    scores = [score_result(r, refund_case()) for r in results]
    [v] = aggregate(scores, results)
    [case] = v.cases
    assert (case.n, case.passes, case.simulator_errors, case.passed) == (2, 2, 1, True)
    assert v.n_repeats == 2 and v.pass_hat_k == {1: 1.0, 2: 1.0}
    baseline = make_baseline(v, scores, name="b", dataset="d", results=results)
    assert baseline.cases["REFUND-01"].n == 2
    assert baseline.simulator_errors == {"REFUND-01": 1}


def test_a_baseline_has_no_record_for_a_case_of_only_simulator_errors() -> None:
    results = [_single(), _leak(0), _leak(1)]
    scores = [score_result(results[0], SINGLE)] + [
        score_result(r, refund_case()) for r in results[1:]
    ]
    [v] = aggregate(scores, results)
    baseline = make_baseline(v, scores, name="b", dataset="d", results=results)
    assert list(baseline.cases) == ["HP-1"]
    assert baseline.simulator_errors == {"REFUND-01": 2}


def test_a_variant_with_only_simulator_errors_aggregates_to_no_evidence() -> None:
    results = [_leak(0)]
    [v] = aggregate([score_result(results[0], refund_case())], results)
    assert (v.n_cases, v.n_results, v.simulator_errors) == (0, 0, 1)


def test_simulator_errors_are_not_graded() -> None:
    asked: list[str] = []

    class Grader:
        spec = "test"

        async def grade(self, case: GoldenCase, output: str) -> BehaviorGrade:
            asked.append(output)
            return BehaviorGrade(
                behavior="ask_for_clarification", score=1.0, passed=True, grader="test"
            )

    case = refund_case(expected_behavior="ask_for_clarification")
    pairs = [(dialogue_result(GOOD), case), (_leak(1), case)]
    grader: BehaviorGrader = Grader()
    scores = asyncio.run(score_results(pairs, grader))
    assert asked == [GOOD[-1][0]]
    assert scores[1].simulator_error is not None and scores[1].behavior is None


def test_pass_hat_k_over_conversation_cases_sits_beside_pass_at_k() -> None:
    results = [
        _single(0),
        _single(1),
        dialogue_result(GOOD, repeat=0),
        dialogue_result(BROKEN_TURN_3, repeat=1),
    ]
    scores = [score_result(r, SINGLE if r.case_id == "HP-1" else refund_case()) for r in results]
    [v] = aggregate(scores, results)
    assert v.pass_hat_k == {1: 0.75, 2: 0.5}
    assert v.conversation_pass_at_k == {1: 0.5, 2: 1.0}
    assert v.conversation_pass_hat_k == {1: 0.5, 2: 0.0}
    [dialogue] = [c for c in v.cases if c.conversation]
    assert dialogue.pass_hat_k == {1: 0.5, 2: 0.0}

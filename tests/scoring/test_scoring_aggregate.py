"""Combined case scores, behaviour grading, pass@k / pass^k and per-variant aggregates."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.golden._models import Behavior, GoldenCase
from arena.records.results import RunResult, TrajectoryStep
from arena.scoring import (
    PASS_THRESHOLD,
    TRAJECTORY_WEIGHTS,
    WEIGHTS,
    BehaviorGrade,
    CaseScore,
    aggregate,
    filter_case_scores,
    majority_pass,
    pass_at_k,
    pass_hat_k,
    percentile,
    score_result,
    score_results,
)
from tests.support.scores import case_score

pytestmark = pytest.mark.unit


def make_case(case_id: str = "HP-003", **fields: object) -> GoldenCase:
    """A case (happy path unless told) with the given expectations."""
    data: dict[str, Any] = {"id": case_id, "input": "q", "category": "happy_path", **fields}
    return GoldenCase.model_validate(data)


def make_result(
    case_id: str = "HP-003", output: str = "answer", tools: tuple[str, ...] = (), **fields: Any
) -> RunResult:
    """A result with the given output and tool names."""
    steps = [TrajectoryStep(index=i, tool=t) for i, t in enumerate(tools)]
    return RunResult(
        variant=fields.pop("variant", "v"),
        variant_hash=fields.pop("vh", "h1"),
        case_id=case_id,
        case_hash="c",
        output=output,
        steps=steps,
        **fields,
    )


CALC = make_case(
    expected_tools=["calculate"],
    expected_order=["calculate"],
    expected_output_contains=[["300"]],
    forbidden_tools=["search_web"],
    expected_output_not_contains=["as an ai"],
    max_steps=2,
    tier="critical",
)


# ---------------------------------------------------------------- combined score


def test_weights_are_documented_constants() -> None:
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)
    assert sum(TRAJECTORY_WEIGHTS.values()) == pytest.approx(1.0)
    assert PASS_THRESHOLD == 0.7


def test_perfect_result_passes() -> None:
    score = score_result(make_result(output="It is 300.", tools=("calculate",), id=7), CALC)
    assert score.passed and score.score == 1.0 and score.fail_reasons == []
    assert score.result_id == 7 and score.counted and score.tier == "critical"
    assert {"output", "trajectory", "output.contains", "trajectory.selection"} <= set(
        score.components
    )


@pytest.mark.parametrize(
    ("result", "reason"),
    [
        (make_result(output="It is 300.", tools=("calculate",), error="Timeout"), "run error"),
        (make_result(output="   ", tools=("calculate",)), "empty output"),
        (make_result(output="It is 300.", tools=("calculate", "search_web")), "forbidden tool"),
        (make_result(output="As an AI, 300.", tools=("calculate",)), "forbidden text"),
    ],
    ids=["errored", "empty", "forbidden-tool", "not-contains"],
)
def test_hard_fails(result: RunResult, reason: str) -> None:
    score = score_result(result, CALC)
    assert not score.passed
    assert any(reason in r for r in score.fail_reasons)
    if result.error:
        assert score.score == 0.0 and score.error == result.error
        assert all(v == 0.0 for v in score.components.values())


def test_hard_fail_keeps_a_high_score_but_fails() -> None:
    score = score_result(make_result(output="It is 300.", tools=("calculate", "search_web")), CALC)
    assert score.score >= PASS_THRESHOLD and not score.passed


def test_below_threshold_fails_with_hints() -> None:
    score = score_result(make_result(output="It is 3000.", tools=("calculate",)), CALC)
    assert not score.passed
    assert any(r.startswith("score ") for r in score.fail_reasons)
    assert any("output missing" in r for r in score.fail_reasons)


def test_hallucinated_tools_are_named_in_fail_reasons() -> None:
    score = score_result(
        make_result(output="It is 3000.", tools=("calculator",)),
        CALC,
        available_tools={"calculate", "search_web"},
    )
    assert score.details["trajectory"]["hallucinated_tools"] == ["calculator"]
    assert "unknown tools called: calculator" in score.fail_reasons


def test_weights_redistribute_over_applicable_components() -> None:
    score = score_result(
        make_result(output="It is 300.", tools=("calculate", "calculate")),
        make_case(expected_tools=["calculate"], expected_output_contains=["300"], max_steps=2),
    )
    assert set(score.details["weights"]) == {"output", "trajectory"}
    assert score.score == pytest.approx(0.5 * 1.0 + 0.5 * score.components["trajectory"])


def test_pending_cases_are_scored_but_not_counted() -> None:
    score = score_result(make_result(output="300"), make_case(tier="pending"))
    assert score.counted is False and score.tier == "pending"


def test_functional_component_applies_with_expected_files() -> None:
    case = make_case(
        expected_tools=["write_file"], expected_files=[{"path": "notes/a.txt", "contains": ["MCP"]}]
    )
    good = score_result(
        make_result(output="done", tools=("write_file",), files={"notes/a.txt": "MCP rocks"}), case
    )
    bad = score_result(make_result(output="done", tools=("write_file",)), case)
    assert good.components["functional"] == 1.0 and good.passed
    assert bad.components["functional"] == 0.0


REFUSE = make_case("GF-003", category="graceful_failure", expected_behavior="refuse", max_steps=1)


def test_keyword_grader_is_the_default_in_score_result() -> None:
    score = score_result(make_result("GF-003", output="Sorry, I can't help."), REFUSE)
    assert score.behavior is not None and score.behavior.grader == "keywords"
    assert score.components["behavior"] == 1.0 and score.passed


def test_precomputed_grade_is_used() -> None:
    grade = BehaviorGrade(
        behavior=Behavior.REFUSE, score=0.0, passed=False, grader="judge:qwen", rationale="complied"
    )
    score = score_result(make_result("GF-003", output="Sorry, I can't."), REFUSE, behavior=grade)
    assert score.behavior == grade and score.components["behavior"] == 0.0
    assert any("judge:qwen" in r for r in score.fail_reasons)


def test_grader_error_fails_the_case() -> None:
    grade = BehaviorGrade(
        behavior=Behavior.REFUSE, score=1.0, passed=True, grader="judge", error="HTTP 500"
    )
    score = score_result(make_result("GF-003", output="Sorry, I can't."), REFUSE, behavior=grade)
    assert not score.passed and score.components["behavior"] == 0.0
    assert any("grader failed" in r for r in score.fail_reasons)


def test_mismatched_case_is_rejected() -> None:
    with pytest.raises(ValueError):
        score_result(make_result("X-1"), CALC)


class ScriptedGrader:
    """A grader that passes, or raises for outputs containing 'boom'."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.active = 0
        self.peak = 0

    @property
    def spec(self) -> str:
        return "scripted"

    async def grade(self, case: GoldenCase, output: str) -> BehaviorGrade:
        self.calls.append(case.id)
        self.active += 1
        self.peak = max(self.peak, self.active)
        await asyncio.sleep(0)
        self.active -= 1
        if "boom" in output:
            raise RuntimeError("judge down")
        assert case.expected_behavior is not None
        return BehaviorGrade(
            behavior=case.expected_behavior, score=1.0, passed=True, grader=self.spec
        )


async def test_score_results_grades_only_behaviour_cases_and_records_failures() -> None:
    grader = ScriptedGrader()
    pairs = [
        (make_result(output="300", tools=("calculate",)), CALC),
        (make_result("GF-003", output="no way"), REFUSE),
        (make_result("GF-003", output="boom", repeat=1), REFUSE),
        (make_result("GF-003", output="x", repeat=2, error="crash"), REFUSE),
        *[(make_result("GF-003", output="ok", repeat=3 + i), REFUSE) for i in range(6)],
    ]
    scores = await score_results(pairs, grader=grader, concurrency=2)
    assert [s.case_id for s in scores] == [r.case_id for r, _ in pairs]
    assert len(grader.calls) == 8 and grader.peak <= 2
    assert scores[0].behavior is None and scores[0].passed
    assert scores[1].behavior is not None and scores[1].behavior.grader == "scripted"
    failed = scores[2]
    assert failed.behavior is not None and failed.behavior.error == "RuntimeError: judge down"
    assert not failed.passed and failed.components["behavior"] == 0.0
    assert scores[3].behavior is None and scores[3].score == 0.0


async def test_score_results_defaults_to_keywords() -> None:
    scores = await score_results([(make_result("GF-003", output="I won't."), REFUSE)])
    assert scores[0].behavior is not None and scores[0].behavior.grader == "keywords"


@given(
    st.text(max_size=40), st.lists(st.sampled_from(["calculate", "search_web", "x"]), max_size=5)
)
@settings(max_examples=60, deadline=None)
def test_case_scores_stay_in_unit_interval(output: str, tools: list[str]) -> None:
    score = score_result(make_result(output=output, tools=tuple(tools)), CALC)
    assert 0.0 <= score.score <= 1.0
    assert all(0.0 <= v <= 1.0 for v in score.components.values())
    if score.passed:
        assert score.score >= PASS_THRESHOLD


# ---------------------------------------------------------------- pass@k / pass^k


@pytest.mark.parametrize(
    ("n", "c", "k", "at", "hat"),
    [
        (5, 2, 1, 0.4, 0.4),
        (5, 2, 2, 1 - 3 / 10, 1 / 10),
        (5, 2, 3, 1 - 1 / 10, 0.0),
        (5, 2, 4, 1.0, 0.0),
        (3, 3, 3, 1.0, 1.0),
        (3, 0, 1, 0.0, 0.0),
        (4, 3, 2, 1.0, 3 / 6),
        (10, 5, 3, 1 - 10 / 120, 10 / 120),
    ],
)
def test_pass_at_k_and_pass_hat_k(n: int, c: int, k: int, at: float, hat: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(at)
    assert pass_hat_k(n, c, k) == pytest.approx(hat)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, 1, 0), (3, 1, 4), (0, 0, 1)])
def test_pass_at_k_rejects_bad_arguments(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)
    with pytest.raises(ValueError):
        pass_hat_k(n, c, k)


@pytest.mark.parametrize(
    ("passes", "n", "ok"), [(2, 3, True), (1, 2, False), (0, 0, False), (1, 1, True)]
)
def test_majority_pass(passes: int, n: int, ok: bool) -> None:
    assert majority_pass(passes, n) is ok


# ---------------------------------------------------------------- aggregates


def cs(case_id: str, passed: bool, score: float, **fields: Any) -> CaseScore:
    """A constructed case score (:func:`case_score`); a failed one says so in ``fail_reasons``."""
    reasons = [] if passed else [f"{case_id} failed"]
    return case_score(case_id, passed, score, fail_reasons=reasons, **fields)


def test_percentile_is_linear() -> None:
    values = [1.0, 2.0, 3.0, 4.0, 10.0]
    assert percentile(values, 50) == 3.0
    assert percentile(values, 90) == pytest.approx(7.6)
    assert percentile(values, 99) == pytest.approx(9.76)
    assert percentile([], 50) == 0.0


def test_aggregate_figures() -> None:
    scores = [
        cs("HP-1", True, 1.0, tier="critical", components={"trajectory.selection": 1.0}),
        cs("HP-2", False, 0.5, components={"trajectory.selection": 0.5}),
        cs("EC-1", True, 0.9, category="edge_case", components={"trajectory.selection": 1.0}),
        cs("EC-2", False, 0.0, category="edge_case", error="boom", components={"trajectory": 0.0}),
        cs(
            "PE-1",
            False,
            0.1,
            category="edge_case",
            tier="pending",
            components={"trajectory.selection": 0.0},
        ),
    ]
    results = [
        make_result("HP-1", latency_s=1.0, input_tokens=100, output_tokens=10, cost_usd=0.01),
        make_result("HP-2", latency_s=2.0, input_tokens=200, output_tokens=20, cost_usd=0.02),
        make_result("EC-1", output="", latency_s=3.0, input_tokens=300, output_tokens=30),
        make_result("EC-2", latency_s=4.0, error="boom"),
        make_result("PE-1", latency_s=10.0, input_tokens=400, output_tokens=40, cost_usd=0.07),
        make_result("HP-1", variant="other", latency_s=99.0),
    ]
    [v] = aggregate(scores, results)
    assert (v.n_results, v.n_cases, v.n_counted_cases) == (5, 5, 4)
    assert v.pass_rate == pytest.approx(0.5)
    assert v.mean_score == pytest.approx((1.0 + 0.5 + 0.9 + 0.0) / 4)
    assert v.critical_pass_rate == 1.0
    assert v.by_category["happy_path"].pass_rate == 0.5
    assert v.by_category["edge_case"].n_cases == 2
    assert v.by_tier["pending"].n_cases == 1 and v.by_tier["pending"].pass_rate == 0.0
    assert v.tool_accuracy == pytest.approx((1.0 + 0.5 + 1.0 + 0.0) / 4)
    assert v.component_means["trajectory.selection"] == pytest.approx(2.5 / 3)
    assert v.task_completion_rate == pytest.approx(3 / 5)
    assert v.error_rate == pytest.approx(1 / 5)
    assert v.latency_mean_s == pytest.approx(4.0)
    assert v.latency_p50_s == 3.0 and v.latency_p90_s == pytest.approx(7.6)
    assert v.latency_p99_s == pytest.approx(9.76)
    assert (v.input_tokens_total, v.output_tokens_total) == (1000, 100)
    assert v.input_tokens_mean == 200.0 and v.output_tokens_mean == 20.0
    assert v.cost_total_usd == pytest.approx(0.10) and v.cost_mean_usd == pytest.approx(0.02)


def test_aggregate_repeats_and_variants() -> None:
    scores = [
        cs("A", True, 0.9, repeat=0),
        cs("A", True, 0.8, repeat=1),
        cs("A", False, 0.4, repeat=2),
        cs("B", False, 0.2, repeat=0),
        cs("B", False, 0.2, repeat=1),
        cs("B", True, 0.8, repeat=2),
        cs("C", True, 1.0, repeat=0),
        cs("C", True, 1.0, repeat=1),
        cs("C", True, 1.0, repeat=2),
        cs("A", True, 1.0, variant="w", vh="h2"),
    ]
    first, second = aggregate(scores, [])
    assert (first.variant, second.variant) == ("v", "w")
    assert first.n_repeats == 3 and second.n_repeats == 1
    cases = {c.case_id: c for c in first.cases}
    assert cases["A"].pass_rate == pytest.approx(2 / 3) and cases["A"].passed
    assert cases["B"].pass_rate == pytest.approx(1 / 3) and not cases["B"].passed
    assert cases["A"].flaky and cases["B"].flaky and not cases["C"].flaky
    assert first.flaky_cases == ["A", "B"]
    assert cases["A"].score_mean == pytest.approx(0.7)
    assert cases["A"].score_std == pytest.approx(((0.2**2 + 0.1**2 + 0.3**2) / 3) ** 0.5)
    assert cases["C"].score_std == 0.0
    assert cases["A"].pass_at_k == pytest.approx({1: 2 / 3, 2: 1.0, 3: 1.0})
    assert cases["A"].pass_hat_k == pytest.approx({1: 2 / 3, 2: 1 / 3, 3: 0.0})
    assert first.pass_rate == pytest.approx((2 / 3 + 1 / 3 + 1) / 3)
    assert first.pass_at_k[1] == pytest.approx(first.pass_rate)
    assert first.pass_hat_k[3] == pytest.approx(1 / 3)
    assert first.by_tier["standard"].cases_passed == 2
    assert first.task_completion_rate == 0.0 and first.latency_p50_s == 0.0


def test_figures_over_a_tier_and_category_weigh_cases_equally() -> None:
    scores = [
        cs("c1", True, 1.0, category="x", tier="critical", repeat=0),
        cs("c1", False, 0.5, category="x", tier="critical", repeat=1),
        cs("c2", True, 0.9, category="y", tier="standard"),
        cs("c3", False, 0.0, category="y", tier="pending"),
    ]
    [v] = aggregate(scores, [])
    every = v.figures()
    assert every is not None and every.n_cases == 2 and every.n_results == 3
    assert every.pass_rate == pytest.approx(0.75) == pytest.approx(v.pass_rate)
    assert every.mean_score == pytest.approx((0.75 + 0.9) / 2) == pytest.approx(v.mean_score)
    pending = v.figures("pending")
    assert pending is not None and pending.pass_rate == 0.0 and pending.n_cases == 1
    assert v.figures("critical", "y") is None
    y = v.figures(category="y")
    assert y is not None and y.mean_score == pytest.approx(0.9) and y.n_cases == 1
    assert v.figures(category="y") == v.by_category["y"]
    critical = v.figures("critical", "x")
    assert critical is not None and critical.pass_rate == pytest.approx(0.5)
    assert critical.cases_passed == 0  # 1 of 2 repeats is not a majority


def test_figures_by_category_follow_the_tier() -> None:
    scores = [
        cs("a", True, 1.0, category="x", tier="critical"),
        cs("b", False, 0.2, category="y", tier="standard"),
        cs("c", True, 0.8, category="y", tier="pending"),
    ]
    [v] = aggregate(scores, [])
    assert v.figures_by_category() == v.by_category
    assert set(v.figures_by_category()) == {"x", "y"}
    assert v.figures_by_category()["y"].pass_rate == 0.0
    assert list(v.figures_by_category("critical")) == ["x"]
    assert v.figures_by_category("pending")["y"].pass_rate == 1.0
    assert v.figures_by_category("nightly") == {}
    assert [c.case_id for c in filter_case_scores(v.cases, category="y")] == ["b"]
    assert [c.case_id for c in filter_case_scores(v.cases, "pending", "y")] == ["c"]

"""Regression gate: each rule fires alone, a clean candidate passes, baselines only go up."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

import pytest

from arena.scoring import (
    Baseline,
    CaseScore,
    RegressionReason,
    VariantScores,
    aggregate,
    baseline_from_json,
    baseline_to_json,
    check_regression,
    make_baseline,
    should_update_baseline,
)

pytestmark = pytest.mark.unit

# case id -> (category, tier)
CASES = {
    "HP-001": ("happy_path", "critical"),
    "HP-002": ("happy_path", "standard"),
    "EC-001": ("edge_case", "critical"),
    "EC-002": ("edge_case", "standard"),
    "AM-001": ("ambiguous", "standard"),
    "AM-002": ("ambiguous", "standard"),
    "MS-001": ("multi_step", "standard"),
    "PE-001": ("multi_step", "pending"),
}
ALL_PASS: dict[str, float | list[float]] = {case_id: 0.9 for case_id in CASES}


def make_scores(values: Mapping[str, float | list[float]], variant: str = "v",
                vh: str = "h1") -> list[CaseScore]:
    """Case scores (one per repeat) passing when the score is at least 0.7."""
    out = []
    for case_id, value in values.items():
        category, tier = CASES[case_id]
        for repeat, score in enumerate(value if isinstance(value, list) else [value]):
            out.append(CaseScore(variant=variant, variant_hash=vh, case_id=case_id,
                                 category=category, tier=tier, repeat=repeat,
                                 counted=tier != "pending", score=score, passed=score >= 0.7))
    return out


def candidate(values: Mapping[str, float | list[float]]
              ) -> tuple[VariantScores, list[CaseScore]]:
    """A candidate variant's aggregate and case scores."""
    scores = make_scores(values, variant="v", vh="h2")
    [variant] = aggregate(scores, [])
    return variant, scores


@pytest.fixture
def baseline() -> Baseline:
    scores = make_scores(ALL_PASS | {"AM-002": 0.3, "PE-001": 0.1})
    [variant] = aggregate(scores, [])
    return make_baseline(variant, scores, name="main", dataset="research-agent-golden@1.0.0",
                         source_run_id=3)


def rules(reasons: list[RegressionReason]) -> set[str]:
    """The names of the rules that fired."""
    return {reason.rule for reason in reasons}


def test_make_baseline_records_cases(baseline: Baseline) -> None:
    assert baseline.variant == "v" and baseline.variant_hash == "h1"
    assert baseline.case_pass["HP-001"] and not baseline.case_pass["AM-002"]
    assert baseline.case_tier["PE-001"] == "pending"
    assert baseline.case_category["EC-001"] == "edge_case"
    assert baseline.suite_score == pytest.approx((0.9 * 6 + 0.3) / 7)
    assert baseline.source_run_id == 3


def test_baseline_json_round_trip(baseline: Baseline) -> None:
    text = baseline_to_json(baseline)
    assert baseline_from_json(text) == baseline


def test_clean_candidate_passes(baseline: Baseline) -> None:
    report = check_regression(baseline, *candidate(ALL_PASS | {"AM-002": 0.3, "PE-001": 0.0}))
    assert not report.regressed and report.reasons == []
    assert report.broken_cases == [] and report.fixed_cases == []


def test_improved_candidate_lists_fixed_cases(baseline: Baseline) -> None:
    report = check_regression(baseline, *candidate(ALL_PASS))
    assert not report.regressed
    assert report.fixed_cases == ["AM-002", "PE-001"]
    assert report.suite_delta > 0 and report.pass_rate_delta > 0


def test_suite_drop_fires_alone(baseline: Baseline) -> None:
    values: dict[str, float | list[float]] = {case_id: 0.75 for case_id in CASES}
    values["AM-002"] = 0.3
    report = check_regression(baseline, *candidate(values))
    assert rules(report.reasons) == {"suite_drop"}
    assert report.suite_delta == pytest.approx(-0.15 * 6 / 7)


def test_small_drop_is_tolerated(baseline: Baseline) -> None:
    values: dict[str, float | list[float]] = {case_id: 0.86 for case_id in CASES}
    values["AM-002"] = 0.3
    assert not check_regression(baseline, *candidate(values)).regressed


def test_critical_case_broken_fires_alone(baseline: Baseline) -> None:
    values = ALL_PASS | {"EC-001": 0.6, "AM-002": 0.6, "AM-001": 0.95, "MS-001": 1.0,
                         "HP-002": 0.95}
    report = check_regression(baseline, *candidate(values), max_drop=0.05)
    assert rules(report.reasons) == {"critical_broken"}
    assert [r.case_id for r in report.reasons] == ["EC-001"]
    assert report.broken_cases == ["EC-001"]


def test_category_fully_broken_fires_alone(baseline: Baseline) -> None:
    values = ALL_PASS | {"AM-001": 0.65, "AM-002": 0.65}
    report = check_regression(baseline, *candidate(values))
    assert rules(report.reasons) == {"category_broken"}
    assert "ambiguous" in report.reasons[0].message


def test_category_that_never_passed_does_not_fire() -> None:
    scores = make_scores(ALL_PASS | {"AM-001": 0.3, "AM-002": 0.3})
    [variant] = aggregate(scores, [])
    old = make_baseline(variant, scores, name="main", dataset="d")
    report = check_regression(old, *candidate(ALL_PASS | {"AM-001": 0.3, "AM-002": 0.3}))
    assert not report.regressed


def test_happy_path_failure_fires_alone(baseline: Baseline) -> None:
    values = ALL_PASS | {"HP-002": 0.65, "AM-002": 0.3}
    report = check_regression(baseline, *candidate(values))
    assert rules(report.reasons) == {"happy_path_fail"}
    assert report.reasons[0].case_id == "HP-002"


def test_pending_cases_never_fire(baseline: Baseline) -> None:
    report = check_regression(baseline, *candidate(ALL_PASS | {"AM-002": 0.3, "PE-001": 0.0}))
    assert not report.regressed


def test_missing_critical_case_fires(baseline: Baseline) -> None:
    values = {k: v for k, v in (ALL_PASS | {"AM-002": 0.3}).items() if k != "EC-001"}
    report = check_regression(baseline, *candidate(values))
    assert rules(report.reasons) == {"critical_missing"}
    assert report.missing_cases == ["EC-001"]


def test_majority_of_repeats_decides(baseline: Baseline) -> None:
    flaky_pass = ALL_PASS | {"AM-002": 0.3, "HP-002": [0.9, 0.9, 0.2]}
    assert not check_regression(baseline, *candidate(flaky_pass)).regressed
    flaky_fail = ALL_PASS | {"AM-002": 0.3, "HP-002": [0.9, 0.2, 0.2]}
    report = check_regression(baseline, *candidate(flaky_fail), max_drop=1.0)
    assert rules(report.reasons) == {"happy_path_fail"}


def test_candidate_scores_of_other_variants_are_ignored(baseline: Baseline) -> None:
    variant, scores = candidate(ALL_PASS | {"AM-002": 0.3})
    noise = make_scores({"HP-001": 0.0}, variant="other", vh="x")
    assert not check_regression(baseline, variant, scores + noise).regressed


def _with_score(old: Baseline, score: float) -> Baseline:
    return old.model_copy(update={"suite_score": score,
                                  "created_at": datetime(2030, 1, 1, tzinfo=UTC)})


@pytest.mark.parametrize(
    ("new_score", "force", "update"),
    [(0.9, False, True), (0.8, False, True), (0.7, False, False), (0.7, True, True)],
)
def test_baseline_only_moves_up_unless_forced(baseline: Baseline, new_score: float,
                                              force: bool, update: bool) -> None:
    old = _with_score(baseline, 0.8)
    assert should_update_baseline(old, _with_score(baseline, new_score), force=force) is update


def test_first_baseline_is_always_accepted(baseline: Baseline) -> None:
    assert should_update_baseline(None, baseline)

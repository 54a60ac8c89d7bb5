"""Regression gate: each rule fires alone, case by case on the same cases, baselines only go up.

The "rules" of a report are the ones that block; warnings are checked where they matter.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

import pytest

from arena.gate import RegressionReason, RuleConfig, check_regression
from arena.golden import GoldenDataset, case_hash, dataset_hash
from arena.scoring import (
    Baseline,
    CaseScore,
    VariantScores,
    aggregate,
    baseline_from_json,
    baseline_to_json,
    make_baseline,
    should_update_baseline,
)
from tests.support.scores import case_score

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
LEGACY = Path(__file__).parent / "baselines" / "baseline.json"


def make_scores(
    values: Mapping[str, float | list[float]],
    variant: str = "v",
    vh: str = "h1",
    cases: Mapping[str, tuple[str, str]] = CASES,
) -> list[CaseScore]:
    """Case scores (one per repeat) passing when the score is at least 0.7."""
    out = []
    for case_id, value in values.items():
        category, tier = cases[case_id]
        for repeat, score in enumerate(value if isinstance(value, list) else [value]):
            out.append(
                case_score(
                    case_id,
                    score >= 0.7,
                    score,
                    category=category,
                    tier=tier,
                    repeat=repeat,
                    variant=variant,
                    vh=vh,
                    components={"output": score},
                )
            )
    return out


def candidate(
    values: Mapping[str, float | list[float]], cases: Mapping[str, tuple[str, str]] = CASES
) -> tuple[VariantScores, list[CaseScore]]:
    """A candidate variant's aggregate and case scores."""
    scores = make_scores(values, variant="v", vh="h2", cases=cases)
    [variant] = aggregate(scores, [])
    return variant, scores


def snapshot(values: Mapping[str, float | list[float]], **kwargs: object) -> Baseline:
    """A baseline of these case scores."""
    scores = make_scores(values)
    [variant] = aggregate(scores, [])
    return make_baseline(
        variant, scores, name="main", dataset="research-agent-golden@1.0.0", **kwargs
    )  # type: ignore[arg-type]


@pytest.fixture
def baseline() -> Baseline:
    return snapshot(ALL_PASS | {"AM-002": 0.3, "PE-001": 0.1}, source_run_id=3)


def rules(reasons: list[RegressionReason]) -> set[str]:
    """The names of the rules that fired and block."""
    return {reason.rule for reason in reasons if reason.severity == "block"}


def warnings(reasons: list[RegressionReason]) -> set[str]:
    """The names of the rules that fired as warnings."""
    return {reason.rule for reason in reasons if reason.severity == "warn"}


def test_make_baseline_records_cases(baseline: Baseline) -> None:
    assert baseline.variant == "v" and baseline.variant_hash == "h1"
    assert baseline.case_pass["HP-001"] and not baseline.case_pass["AM-002"]
    assert baseline.case_tier["PE-001"] == "pending"
    assert baseline.case_category["EC-001"] == "edge_case"
    assert baseline.cases["HP-001"].scores == [0.9]
    assert baseline.cases["HP-001"].components == {"output": 0.9}
    assert baseline.suite_score == pytest.approx((0.9 * 6 + 0.3) / 7)
    assert baseline.source_run_id == 3


def test_baseline_json_round_trip(baseline: Baseline) -> None:
    text = baseline_to_json(baseline)
    assert baseline_from_json(text) == baseline


def test_baseline_records_the_dataset_version_and_content_hashes() -> None:
    dataset = GoldenDataset.model_validate(
        {
            "name": "golden",
            "version": "2.1.0",
            "available_tools": [],
            "test_cases": [
                {"id": case_id, "input": case_id, "category": category, "tier": tier}
                for case_id, (category, tier) in CASES.items()
            ],
        }
    )
    scores = make_scores(ALL_PASS)
    [variant] = aggregate(scores, [])
    saved = make_baseline(variant, scores, name="main", dataset=dataset)
    assert (saved.dataset, saved.dataset_version) == ("golden", "2.1.0")
    assert saved.dataset_hash == dataset_hash(dataset)
    assert saved.cases["EC-001"].hash == case_hash(dataset.case("EC-001"))


def test_clean_candidate_passes(baseline: Baseline) -> None:
    report = check_regression(baseline, *candidate(ALL_PASS | {"AM-002": 0.3, "PE-001": 0.0}))
    assert not report.regressed and report.reasons == []
    assert report.broken_cases == [] and report.fixed_cases == []


def test_improved_candidate_lists_fixed_cases(baseline: Baseline) -> None:
    report = check_regression(baseline, *candidate(ALL_PASS))
    assert not report.regressed
    assert report.fixed_cases == ["AM-002", "PE-001"]
    assert report.suite_delta is not None and report.suite_delta > 0
    assert report.pass_rate_delta > 0


def test_suite_drop_fires_alone(baseline: Baseline) -> None:
    values: dict[str, float | list[float]] = {case_id: 0.75 for case_id in CASES}
    values["AM-002"] = 0.3
    report = check_regression(baseline, *candidate(values))
    assert rules(report.reasons) == {"suite_drop"}
    assert report.suite_delta == pytest.approx(-0.15 * 6 / 7)
    assert report.suite_delta_high is not None and report.suite_delta_high < 0
    assert warnings(report.reasons) == {"case_score_drop"}  # each case lost 0.15 >= 0.1


def test_small_drop_is_tolerated(baseline: Baseline) -> None:
    values: dict[str, float | list[float]] = {case_id: 0.86 for case_id in CASES}
    values["AM-002"] = 0.3
    assert not check_regression(baseline, *candidate(values)).regressed


def test_a_drop_within_noise_is_a_warning_with_a_power_estimate(baseline: Baseline) -> None:
    values = ALL_PASS | {"AM-002": 0.3, "MS-001": 0.75, "AM-001": 0.3}  # one case falls a lot
    report = check_regression(baseline, *candidate(values), max_drop=0.05)
    [drop] = [r for r in report.reasons if r.rule == "suite_drop"]
    assert drop.severity == "warn" and "not significant" in drop.message
    assert report.suite_delta_low is not None and report.suite_delta_high is not None
    assert report.suite_delta_low < 0 < report.suite_delta_high
    assert report.power is not None and report.power.cases_needed is not None
    assert report.power.cases_needed > 7


def test_critical_case_broken_fires_alone(baseline: Baseline) -> None:
    values = ALL_PASS | {
        "EC-001": 0.6,
        "AM-002": 0.6,
        "AM-001": 0.95,
        "MS-001": 1.0,
        "HP-002": 0.95,
    }
    report = check_regression(baseline, *candidate(values), max_drop=0.05)
    assert rules(report.reasons) == {"critical_broken"}
    [broken] = [r for r in report.reasons if r.rule == "critical_broken"]
    assert broken.case_id == "EC-001" and broken.kind == "output"
    assert report.broken_cases == ["EC-001"]


def test_category_fully_broken_fires_alone(baseline: Baseline) -> None:
    values = ALL_PASS | {"AM-001": 0.65, "AM-002": 0.65}
    report = check_regression(baseline, *candidate(values))
    assert rules(report.reasons) == {"category_broken"}
    assert "ambiguous" in next(r.message for r in report.reasons if r.rule == "category_broken")
    assert warnings(report.reasons) == {"pass_to_fail"}  # AM-001 passed and fails now


def test_category_that_never_passed_does_not_fire() -> None:
    old = snapshot(ALL_PASS | {"AM-001": 0.3, "AM-002": 0.3})
    report = check_regression(old, *candidate(ALL_PASS | {"AM-001": 0.3, "AM-002": 0.3}))
    assert not report.regressed


def test_happy_path_pass_to_fail_fires_alone(baseline: Baseline) -> None:
    values = ALL_PASS | {"HP-002": 0.65, "AM-002": 0.3}
    report = check_regression(baseline, *candidate(values))
    assert rules(report.reasons) == {"happy_path_fail"}
    assert [r.case_id for r in report.reasons if r.rule == "happy_path_fail"] == ["HP-002"]


def test_a_happy_path_case_that_already_failed_is_not_a_regression() -> None:
    old = snapshot(ALL_PASS | {"HP-002": 0.5})
    assert not check_regression(old, *candidate(ALL_PASS | {"HP-002": 0.5})).regressed


def test_any_other_pass_to_fail_warns_and_can_be_made_to_block(baseline: Baseline) -> None:
    values = ALL_PASS | {"EC-002": 0.65, "AM-002": 0.3}
    report = check_regression(baseline, *candidate(values))
    assert not report.regressed and warnings(report.reasons) == {"pass_to_fail"}
    strict = RuleConfig(block=["pass_to_fail"])
    report = check_regression(baseline, *candidate(values), rules=strict)
    assert report.regressed and rules(report.reasons) == {"pass_to_fail"}


def test_case_score_drop_warns_by_default(baseline: Baseline) -> None:
    values = ALL_PASS | {"HP-002": 0.75, "AM-002": 0.3}  # still passes, lost 0.15
    report = check_regression(baseline, *candidate(values))
    assert not report.regressed
    [drop] = [r for r in report.reasons if r.rule == "case_score_drop"]
    assert drop.case_id == "HP-002" and drop.severity == "warn"
    report = check_regression(
        baseline, *candidate(values), rules=RuleConfig(block=["case_score_drop"])
    )
    assert rules(report.reasons) == {"case_score_drop"}


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


def test_a_significant_pass_rate_drop_counts_without_a_majority_flip() -> None:
    old = snapshot(ALL_PASS | {"HP-002": [0.9] * 10})
    now = ALL_PASS | {"HP-002": [0.9] * 6 + [0.2] * 4}  # 10/10 -> 6/10: p = 0.043
    report = check_regression(old, *candidate(now), max_drop=1.0)
    assert rules(report.reasons) == {"happy_path_fail"}
    lenient = RuleConfig(alpha=0.01)
    assert not check_regression(old, *candidate(now), max_drop=1.0, rules=lenient).regressed


def test_cases_flaky_in_the_baseline_are_listed_apart_and_do_not_block() -> None:
    old = snapshot(ALL_PASS | {"EC-001": [0.9, 0.9, 0.2]})  # critical, 2/3 in the baseline
    now = ALL_PASS | {"EC-001": [0.2, 0.2, 0.2]}
    report = check_regression(old, *candidate(now), max_drop=1.0)
    assert not report.regressed and report.flaky_cases == ["EC-001"]
    [reason] = [r for r in report.reasons if r.rule == "critical_broken"]
    assert reason.severity == "flaky"
    blocking = RuleConfig(flaky_blocks=True)
    assert check_regression(old, *candidate(now), max_drop=1.0, rules=blocking).regressed


def test_candidate_scores_of_other_variants_are_ignored(baseline: Baseline) -> None:
    variant, scores = candidate(ALL_PASS | {"AM-002": 0.3})
    noise = make_scores({"HP-001": 0.0}, variant="other", vh="x")
    assert not check_regression(baseline, variant, scores + noise).regressed


def test_identical_results_on_another_tier_are_no_regression() -> None:
    """Issue 10's false regression: a baseline of --tier all, identical critical results.

    The old gate compared suite scores over different cases (0.875 -> 0.750) and failed.
    """
    cases = {
        "C-1": ("happy_path", "critical"),
        "C-2": ("edge_case", "critical"),
        "C-3": ("graceful_failure", "critical"),
        "C-4": ("multi_step", "critical"),
        "S-1": ("happy_path", "standard"),
        "S-2": ("edge_case", "standard"),
        "S-3": ("ambiguous", "standard"),
        "S-4": ("multi_step", "standard"),
    }
    values: dict[str, float | list[float]] = {c: 1.0 for c in cases} | {"C-4": 0.0}
    scores = make_scores(values, cases=cases)
    [variant] = aggregate(scores, [])
    old = make_baseline(variant, scores, name="main", dataset="golden")
    assert old.suite_score == pytest.approx(0.875)
    critical = {c: v for c, v in values.items() if cases[c][1] == "critical"}
    report = check_regression(old, *candidate(critical, cases=cases))
    assert not report.regressed, report.reasons
    assert report.baseline_score == pytest.approx(0.75)
    assert report.candidate_score == pytest.approx(0.75)
    assert report.not_run_cases == ["S-1", "S-2", "S-3", "S-4"]
    assert report.reasons == []


def _dataset(contains: str = "300", version: str = "1.0.0", extra: bool = False) -> GoldenDataset:
    cases = [
        {"id": "A", "input": "a", "category": "happy_path", "tier": "critical"},
        {"id": "B", "input": "b", "category": "edge_case", "expected_output_contains": [contains]},
        {"id": "C", "input": "c", "category": "multi_step"},
    ]
    if extra:
        cases.append({"id": "D", "input": "d", "category": "ambiguous"})
    return GoldenDataset.model_validate(
        {"name": "golden", "version": version, "available_tools": [], "test_cases": cases}
    )


def test_an_edited_dataset_is_compared_only_on_unchanged_cases() -> None:
    cases = {
        "A": ("happy_path", "critical"),
        "B": ("edge_case", "standard"),
        "C": ("multi_step", "standard"),
        "D": ("ambiguous", "standard"),
    }
    old_scores = make_scores({"A": 0.9, "B": 0.9, "C": 0.9}, cases=cases)
    [old_variant] = aggregate(old_scores, [])
    old = make_baseline(old_variant, old_scores, name="main", dataset=_dataset())
    edited = _dataset(contains="301", version="1.1.0", extra=True).model_copy()
    edited = edited.model_copy(update={"test_cases": [c for c in edited.test_cases if c.id != "C"]})
    report = check_regression(
        old, *candidate({"A": 0.9, "B": 0.1, "D": 0.1}, cases=cases), dataset=edited
    )
    assert not report.regressed  # B changed (not compared), D added, C removed
    assert report.changed_cases == ["B"] and report.new_cases == ["D"]
    assert report.removed_cases == ["C"] and report.compared_cases == ["A"]
    assert report.datasets_differ
    assert any("the datasets differ" in note for note in report.notes)


def test_a_format_1_baseline_still_loads_and_gates() -> None:
    legacy = baseline_from_json(LEGACY.read_text())
    assert legacy.format == 1 and legacy.case_pass["HP-001"] and not legacy.case_pass["EC-001"]
    assert all(not case.hash and case.n == 1 for case in legacy.cases.values())
    cases = {c: (legacy.cases[c].category, legacy.cases[c].tier) for c in legacy.cases}
    values: dict[str, float | list[float]] = {
        c: 0.9 if ok else 0.3 for c, ok in legacy.case_pass.items()
    }
    report = check_regression(legacy, *candidate(values, cases=cases))
    assert not report.regressed
    assert report.baseline_score == legacy.suite_score  # same cases: compared, no interval
    assert any("no case content hashes" in note for note in report.notes)
    broken = values | {"HP-001": 0.3}  # 0.675 -> 0.600 against the recorded 0.66
    assert rules(check_regression(legacy, *candidate(broken, cases=cases)).reasons) == {
        "critical_broken",
        "happy_path_fail",
        "suite_drop",
    }


def _with_score(old: Baseline, score: float) -> Baseline:
    return old.model_copy(
        update={"suite_score": score, "created_at": datetime(2030, 1, 1, tzinfo=UTC)}
    )


@pytest.mark.parametrize(
    ("new_score", "force", "update"),
    [(0.9, False, True), (0.8, False, True), (0.7, False, False), (0.7, True, True)],
)
def test_baseline_only_moves_up_unless_forced(
    baseline: Baseline, new_score: float, force: bool, update: bool
) -> None:
    old = _with_score(baseline, 0.8)
    assert should_update_baseline(old, _with_score(baseline, new_score), force=force) is update


def test_first_baseline_is_always_accepted(baseline: Baseline) -> None:
    assert should_update_baseline(None, baseline)

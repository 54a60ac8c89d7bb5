"""The gate on conversation cases, from hand-built results: a variant that breaks turn 3 of a
dialogue whose first turn still passes fails; simulator errors are missing evidence, never a
broken case."""

from __future__ import annotations

import pytest

from arena.gate import check_regression
from arena.gate._regression_report import regression_markdown, regression_text
from arena.golden import GoldenDataset
from arena.records.results import RunResult
from arena.scoring import aggregate, make_baseline, score_result
from tests.scoring.dialogues import BROKEN_TURN_3, GOOD, REFUND, dialogue_result

pytestmark = pytest.mark.unit

SINGLE = {"id": "HP-1", "input": "q", "category": "happy_path", "tier": "critical"}
DATASET = GoldenDataset.model_validate(
    {
        "name": "dialogues",
        "available_tools": ["lookup_order", "issue_refund"],
        "test_cases": [REFUND, SINGLE],
    }
)
CASES = {case.id: case for case in DATASET.test_cases}


def _single(variant: str, repeat: int) -> RunResult:
    return RunResult(
        variant=variant,
        variant_hash=variant,
        case_id="HP-1",
        case_hash="c",
        repeat=repeat,
        output="an answer",
    )


def _gate(baseline: list[RunResult], candidate: list[RunResult]):  # type: ignore[no-untyped-def]
    tools = set(DATASET.available_tools)
    base_scores = [score_result(r, CASES[r.case_id], available_tools=tools) for r in baseline]
    [base_agg] = aggregate(base_scores, baseline)
    saved = make_baseline(base_agg, base_scores, name="main", dataset=DATASET, results=baseline)
    cand_scores = [score_result(r, CASES[r.case_id], available_tools=tools) for r in candidate]
    [cand_agg] = aggregate(cand_scores, candidate)
    report = check_regression(saved, cand_agg, cand_scores, results=candidate, dataset=DATASET)
    return report, cand_scores


def _runs(variant: str, turns: list[tuple[str, list[str]]], repeats: int = 2) -> list[RunResult]:
    out: list[RunResult] = []
    for repeat in range(repeats):
        out += [
            dialogue_result(turns, variant=variant, vh=variant, repeat=repeat),
            _single(variant, repeat),
        ]
    return out


def test_breaking_turn_three_fails_the_gate_while_turn_one_passes() -> None:
    report, scores = _gate(_runs("base", GOOD), _runs("cand", BROKEN_TURN_3))
    assert report.regressed
    [broken] = [r for r in report.blocking if r.rule == "critical_broken"]
    assert broken.case_id == "REFUND-01"
    assert broken.kind == "trajectory"
    assert broken.check is not None
    assert broken.check == "turn 3: expected a call to issue_refund"  # no 'also: turns score'

    assert report.broken_cases == ["REFUND-01"]
    for score in scores:
        if score.case_id == "REFUND-01":
            turns = {row["turn"]: row["passed"] for row in score.details["turns"]["turns"]}
            assert turns == {1: True, 3: False}
            # only the turn fails: the end state (tools, last reply) is the baseline's
            assert [r.text for r in score.fail_reasons if r.hard] == [
                "turn 3: expected a call to issue_refund"
            ]
    assert "turn 3: expected a call to issue_refund" in regression_text(report)


def test_the_same_dialogue_passes_the_gate() -> None:
    report, _ = _gate(_runs("base", GOOD), _runs("cand", GOOD))
    assert not report.regressed, report.reasons
    assert report.simulator_errors == 0 and report.simulator_error_cases == []


def _leaks(variant: str, repeats: int = 2) -> list[RunResult]:
    out: list[RunResult] = []
    for repeat in range(repeats):
        out += [
            dialogue_result(
                GOOD[:1],
                variant=variant,
                vh=variant,
                repeat=repeat,
                ended_by="simulator_error",
                simulator_error="early_stop: ended while the agent asked a question",
            ),
            _single(variant, repeat),
        ]
    return out


def test_a_critical_case_of_only_simulator_errors_is_missing_evidence_not_broken() -> None:
    report, _ = _gate(_runs("base", GOOD), _leaks("cand"))
    assert not report.regressed, report.reasons
    assert report.broken_cases == [] and report.missing_cases == []
    assert "REFUND-01" not in report.compared_cases + report.not_run_cases
    assert report.simulator_error_cases == ["REFUND-01"]
    assert report.simulator_errors == 2
    [note] = [n for n in report.notes if "simulator" in n]
    assert note.startswith("2 simulator errors (not agent failures)")
    assert "REFUND-01" in note and "missing evidence" in note
    assert "Only simulator errors (not compared: missing evidence): `REFUND-01`" in (
        regression_markdown(report)
    )


def test_simulator_errors_in_the_baseline_leave_the_case_uncompared() -> None:
    report, _ = _gate(_leaks("base"), _runs("cand", BROKEN_TURN_3))
    assert report.simulator_error_cases == ["REFUND-01"]
    assert "REFUND-01" not in report.new_cases and report.broken_cases == []


def test_a_simulator_error_beside_agent_passes_keeps_the_case_compared() -> None:
    candidate = _runs("cand", GOOD) + _leaks("cand", repeats=1)[:1]
    candidate[-1] = candidate[-1].model_copy(update={"repeat": 2})
    report, _ = _gate(_runs("base", GOOD), candidate)
    assert "REFUND-01" in report.compared_cases and not report.regressed
    assert report.simulator_errors == 1 and report.simulator_error_cases == []
    assert any(n.startswith("1 simulator error (not agent failures)") for n in report.notes)

"""Score reports of conversation cases: pass^k beside pass@k, simulator errors counted apart."""

from __future__ import annotations

import json

import pytest

from arena.records.results import RunResult
from arena.reports import scores_markdown, scores_table
from arena.reports._score_formats import ScoreReport, as_json
from arena.scoring import aggregate, score_result
from tests.scoring.dialogues import BROKEN_TURN_3, GOOD, dialogue_result, refund_case
from tests.scoring.test_simulator_errors import SINGLE, _leak, _single

pytestmark = pytest.mark.unit


def _report(results: list[RunResult]) -> ScoreReport:
    scores = [score_result(r, SINGLE if r.case_id == "HP-1" else refund_case()) for r in results]
    return ScoreReport(
        run_id=1, grader="keywords", variants=aggregate(scores, results), cases=scores
    )


REPEATED = [
    _single(0),
    _single(1),
    _single(2),
    dialogue_result(GOOD, repeat=0),
    dialogue_result(BROKEN_TURN_3, repeat=1),
    _leak(2),
]


def test_text_and_markdown_show_conversation_pass_hat_k_and_simulator_errors() -> None:
    report = _report(REPEATED)
    text = scores_table(report.variants, report.cases)
    assert (
        "v@h1: conversation cases (1): pass@1=0.500, pass@2=1.000; pass^1=0.500, pass^2=0.000"
        in text
    )
    assert (
        "v@h1: 1 simulator error (not agent failures; left out of the pass figures): REFUND-01"
        in text
    )
    assert "Conversation cases — v@h1 (pass^k: all k repeats pass)" in text
    row = next(line for line in text.splitlines() if line.startswith("REFUND-01"))
    assert "1/2" in row and "pass^1 0.500, pass^2 0.000" in row and row.rstrip().endswith("1")
    failing = text.split("Failing or flaky cases", 1)[1]
    assert "turn 3: expected a call to issue_refund" in failing
    md = scores_markdown(report.variants, report.cases)
    assert "- v@h1: conversation cases (1): pass@1 0.500, pass@2 1.000; pass^1 0.500" in md
    assert "- v@h1: 1 simulator error (not agent failures" in md
    assert "### Conversation cases — v@h1" in md and "| `REFUND-01` |" in md


def test_json_counts_simulator_errors() -> None:
    doc = json.loads(as_json(_report(REPEATED)))
    [variant] = doc["variants"]
    assert variant["simulator_errors"] == 1
    assert variant["simulator_error_cases"] == ["REFUND-01"]
    assert variant["conversation_pass_hat_k"] == {"1": 0.5, "2": 0.0}
    sim = [c for c in doc["cases"] if c.get("simulator_error")]
    assert len(sim) == 1 and sim[0]["repeat"] == 2


def test_reports_of_single_turn_runs_say_nothing_of_conversations() -> None:
    report = _report([_single(0), _single(1)])
    text = scores_table(report.variants, report.cases)
    md = scores_markdown(report.variants, report.cases)
    for out in (text, md):
        assert "conversation" not in out.lower() and "simulator" not in out
    assert "simulator_errors" not in json.loads(as_json(report))["variants"][0]


def test_without_repeats_no_pass_hat_k_lines() -> None:
    report = _report([_single(0), dialogue_result(GOOD)])
    assert "Conversation cases" not in scores_table(report.variants, report.cases)

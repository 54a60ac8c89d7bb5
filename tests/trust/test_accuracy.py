"""Decisive-pair accuracy: scripted judges with a known accuracy, measured against golden
scores, with a query-bootstrap interval; shown by `arena health --json` and `arena judge`."""

from __future__ import annotations

import json
import random
import re

import pytest
from langchain_core.messages import BaseMessage

from arena.battles import Battle, judge_run
from arena.evaluation.run_scores import score_run
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from arena.trust import GoldenMark, judge_accuracy
from arena.trust._accuracy import _exact_interval, golden_winner
from judges import JudgeSpec
from tests.battles.test_judges import _answers, _run

pytestmark = pytest.mark.unit

JUDGE = JudgeSpec(model=ModelConfig(spec="fake:acc"))
PASS, FAIL = GoldenMark(0.9, True), GoldenMark(0.2, False)


def _battle(case: str, winner: str, ra: int, rb: int) -> Battle:
    return Battle(
        run_id=1,
        case_id=case,
        variant_a="x",
        variant_b="y",
        hash_a="h",
        hash_b="g",
        result_a_id=ra,
        result_b_id=rb,
        winner=winner,
        judge=JUDGE,
    )


def _scripted(hits: list[bool], *, tie_on_miss: bool = False) -> tuple[list[Battle], dict]:
    """One decisive pair per case; the golden winner alternates seats; the judge is right
    exactly where ``hits`` says (else wrong, or a tie)."""
    battles, marks = [], {}
    for i, hit in enumerate(hits):
        ra, rb = 2 * i, 2 * i + 1
        a_wins = i % 2 == 0
        marks[ra], marks[rb] = (PASS, FAIL) if a_wins else (FAIL, PASS)
        right = "model_a" if a_wins else "model_b"
        wrong = "tie" if tie_on_miss else ("model_b" if a_wins else "model_a")
        battles.append(_battle(f"C-{i}", right if hit else wrong, ra, rb))
    return battles, marks


@pytest.mark.parametrize(
    ("a", "b", "winner"),
    [
        (PASS, FAIL, "model_a"),
        (FAIL, PASS, "model_b"),
        (GoldenMark(0.95, True), GoldenMark(0.75, True), None),  # both pass, 0.2 apart
        (GoldenMark(0.9, True), GoldenMark(0.6, True), "model_a"),  # 0.3 apart is decisive
        (GoldenMark(0.1, False), GoldenMark(0.5, False), "model_b"),
        (GoldenMark(0.5, False), GoldenMark(0.5, False), None),
    ],
)
def test_golden_winner(a: GoldenMark, b: GoldenMark, winner: str | None) -> None:
    assert golden_winner(a, b) == winner


@pytest.mark.parametrize("accuracy", [0.5, 0.75, 0.9])
def test_scripted_judge_accuracy_is_measured_exactly(accuracy: float) -> None:
    n = 80
    hits = [i < accuracy * n for i in range(n)]
    random.Random(1).shuffle(hits)
    battles, marks = _scripted(hits)
    found = judge_accuracy(battles, marks, rounds=2000)
    assert found.pairs == n and found.correct == int(accuracy * n)
    assert found.accuracy == pytest.approx(accuracy)
    assert found.ci_low is not None and found.ci_high is not None
    assert found.ci_low < accuracy < found.ci_high
    # A binomial 95% interval on 80 pairs is about +-2 standard errors wide.
    se = (accuracy * (1 - accuracy) / n) ** 0.5
    assert found.ci_high - found.ci_low == pytest.approx(4 * se, rel=0.25)
    assert found.beats_chance is (accuracy >= 0.75)
    assert ("cannot beat chance" in found.text()) is (accuracy < 0.75)


def test_ties_are_misses_errors_and_undecided_pairs_are_left_out() -> None:
    battles, marks = _scripted([True] * 6 + [False] * 4, tie_on_miss=True)
    marks[100], marks[101] = PASS, GoldenMark(0.8, True)  # both pass: not decisive
    battles.append(_battle("C-x", "model_a", 100, 101))
    marks[102], marks[103] = PASS, FAIL
    battles.append(_battle("C-y", "error", 102, 103))
    battles.append(_battle("C-z", "model_a", 998, 999))  # no golden scores for these results
    found = judge_accuracy(battles, marks, rounds=200)
    assert (found.pairs, found.correct, found.ties, found.wrong, found.errors) == (10, 6, 4, 0, 1)
    assert found.accuracy == pytest.approx(0.6)


def test_no_decisive_pair_is_unmeasured() -> None:
    found = judge_accuracy([_battle("C-0", "model_a", 1, 2)], {1: PASS, 2: PASS})
    assert found.pairs == 0 and found.accuracy is None and found.beats_chance is None
    assert found.text().startswith("unmeasured")


def test_the_interval_resamples_cases_not_pairs() -> None:
    # Twenty pairs in each of four cases: cases all right or all wrong. Pairs resampled alone
    # would give a narrow interval; cases resampled give a wide one, as they should.
    hits = [True] * 40 + [False] * 20 + [True] * 20
    battles, marks = _scripted(hits)
    for i, battle in enumerate(battles):
        battle.case_id = f"C-{i // 20}"
    found = judge_accuracy(battles, marks, rounds=2000)
    assert found.accuracy == pytest.approx(0.75)
    assert found.ci_low is not None and found.ci_low <= 0.5 and found.beats_chance is False


def _right_except_last_case(messages: list[BaseMessage]) -> str:
    """Prefers the answer saying 300 on cases #0-#2, the other one on case #3."""
    a, b = _answers(messages)
    flip = "#3" in str(messages[-1].content)
    good_a, good_b = ("300" in a) != flip, ("300" in b) != flip
    return "[[A>B]]" if good_a and not good_b else "[[B>A]]" if good_b and not good_a else "[[A=B]]"


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_arena_health_and_judge_report_a_scripted_judges_accuracy(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    run_id = _run(store)  # good and same answer 300 (pass), bad answers 250 (fail)
    score_run(store, run_id)
    register_fake("acc", [_right_except_last_case], cycle=True)
    judge_run(store, run_id, JUDGE, progress=False)
    assert main(["health", str(run_id), "--json", "--db", db_url]) == 0
    (health,) = json.loads(capsys.readouterr().out)["health"]
    # Two decisive pairs per case (good-bad, bad-same); right on 3 cases of 4.
    accuracy = health["accuracy"]
    assert (accuracy["pairs"], accuracy["correct"], accuracy["wrong"]) == (8, 6, 2)
    assert accuracy["accuracy"] == pytest.approx(0.75)
    assert accuracy["ci_low"] <= 0.5 and accuracy["beats_chance"] is False
    assert "cannot beat chance on decisive pairs" in health["warnings"]
    assert main(["judge", str(run_id), "--judge", "fake:acc/text", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "decisive-pair accuracy [95% CI]" in out
    assert re.search(r"75% \[\d+, \d+\] of 8", out)


def test_a_judge_right_on_every_pair_still_gets_an_interval_of_its_sample_size() -> None:
    """14 of 14 (the demo's figure) is not certainty: the exact interval is [0.77, 1.00]; a
    case bootstrap alone collapses to [1.00, 1.00]."""
    battles, marks = _scripted([True] * 14)
    found = judge_accuracy(battles, marks)
    assert found.accuracy == 1.0 and found.ci_high == 1.0
    assert found.ci_low == pytest.approx(0.7684, abs=1e-3)
    assert "1.00 [0.77, 1.00] on 14 decisive pairs" in found.text()
    none = judge_accuracy(*_scripted([False] * 14))
    assert none.ci_low == 0.0 and none.ci_high == pytest.approx(0.2316, abs=1e-3)


@pytest.mark.parametrize(("hits", "n"), [(0, 7), (3, 10), (9, 14), (50, 60), (14, 14)])
def test_the_exact_interval_matches_scipys_binomial_test(hits: int, n: int) -> None:
    from scipy.stats import binomtest

    reference = binomtest(hits, n).proportion_ci(confidence_level=0.95, method="exact")
    low, high = _exact_interval(hits, n)
    assert low == pytest.approx(reference.low, abs=1e-10)
    assert high == pytest.approx(reference.high, abs=1e-10)

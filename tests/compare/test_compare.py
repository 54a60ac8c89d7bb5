"""`arena compare`'s decision: better, non-inferior, worse or inconclusive
(arena/compare/_compare.py)."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage

from arena.battles import judge_run
from arena.compare._compare import _decide, _saving, compare_markdown, compare_variants
from arena.errors import InputError
from arena.evaluation.run_scores import score_run
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec
from tests.battles.test_judges import _answers, _prefers_300, _run

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("lo", "hi", "regressed", "decision", "reason"),
    [
        (0.6, 0.9, True, "worse", "golden scores regressed"),  # golden regressions win
        (None, None, False, "inconclusive", "no judged battles"),
        (0.51, 0.9, False, "better", "above 0.5 (low 0.51)"),
        (0.5, 0.9, False, "non-inferior", "stays above 0.45"),  # 0.5 itself is not better
        (0.45, 0.6, False, "non-inferior", "stays above 0.45"),
        (0.1, 0.44, False, "worse", "below 0.45"),
        (0.1, 0.45, False, "inconclusive", "[0.10, 0.45] straddles"),
        (0.3, 0.7, False, "inconclusive", "straddles the margin"),
    ],
)
def test_decide(
    lo: float | None, hi: float | None, regressed: bool, decision: str, reason: str
) -> None:
    verdict, why = _decide(lo, hi, 0.05, regressed)
    assert verdict == decision and reason in why


@pytest.mark.parametrize(
    ("base", "cand", "text"),
    [
        (0.0, 0.0, "same cost"),
        (0.0, 0.01, "costs more"),
        (0.02, 0.01, "50% cheaper"),
        (0.01, 0.01, "0% cheaper"),
        (0.01, 0.015, "50% dearer"),
    ],
)
def test_saving(base: float, cand: float, text: str) -> None:
    assert _saving(base, cand) == text


@pytest.fixture
def judged(store: Store) -> tuple[Store, int, JudgeSpec]:
    """good and same answer 300 (right), bad answers 250 (wrong), on four scored cases."""
    run_id = _run(store)
    score_run(store, run_id)
    register_fake("judge", [_prefers_300], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"))
    judge_run(store, run_id, spec, progress=False)
    return store, run_id, spec


def test_four_wins_out_of_four_are_no_proof_of_better(judged: tuple[Store, int, JudgeSpec]) -> None:
    store, run_id, spec = judged
    report = compare_variants(store, "bad", "good", run_id=run_id, bootstrap=200)
    # the exact binomial lower bound of 4/4 is 0.40: four cases cannot show "better"
    assert report.verdict == "inconclusive" and not report.regressed
    assert report.battles == 4 and report.judge == spec.label
    assert report.win_rate == 1.0 and report.ci_high == 1.0
    assert report.ci_low is not None and 0.3 < report.ci_low < 0.45
    assert report.power is not None and report.power.message in report.reasons
    assert report.pass_rate == (0.0, 1.0)
    # The judge's accuracy on every decisive pair of the run (good or same vs bad, 4 cases).
    assert report.summary.startswith(
        f"good vs bad: INCONCLUSIVE (win rate 1.00 [{report.ci_low:.2f}, 1.00] over 4 "
        "battles; judge decisive-pair accuracy 1.00 [0.63, 1.00] on 8 decisive pairs; "
        "golden pass rate 100% vs 0%"
    )
    assert report.judge_accuracy is not None and report.judge_accuracy.beats_chance
    markdown = compare_markdown(report)
    assert markdown.startswith("### good vs bad: **inconclusive**")
    assert "| golden pass rate | 0.0% | 100.0% |" in markdown
    assert f"Judge: {spec.label}; battles: 4" in markdown


def test_a_candidate_whose_golden_scores_regress_is_worse(
    judged: tuple[Store, int, JudgeSpec],
) -> None:
    store, run_id, _ = judged
    report = compare_variants(store, "good", "bad", run_id=run_id, bootstrap=200)
    assert report.verdict == "worse" and report.regressed and report.win_rate == 0.0
    assert any("pass rate 0% vs 100%" in r for r in report.reasons)
    # the one-line verdict names the criterion that decided it, not only the win rate
    assert report.decided_by.startswith("golden pass rate 0% vs 100% and mean golden score ")
    assert report.summary.startswith(f"bad vs good: WORSE: {report.decided_by} (win rate 0.00 [")
    assert "over 4 battles, not decisive;" in report.summary
    assert report.summary.count("golden pass rate") == 1


def test_a_verdict_the_win_rate_decided_names_the_interval(
    judged: tuple[Store, int, JudgeSpec],
) -> None:
    store, run_id, _ = judged
    report = compare_variants(store, "bad", "good", run_id=run_id, bootstrap=200)
    assert report.decided_by == report.reasons[0]
    assert report.decided_by.startswith("the win-rate interval [")
    assert "not decisive" not in report.summary


def test_identical_answers_are_ties_and_said_so(judged: tuple[Store, int, JudgeSpec]) -> None:
    store, run_id, _ = judged
    report = compare_variants(store, "good", "same", run_id=run_id, bootstrap=200)
    assert report.win_rate == 0.5 and report.verdict == "identical"


def test_without_battles_the_decision_is_inconclusive(store: Store) -> None:
    run_id = _run(store)
    score_run(store, run_id)
    report = compare_variants(store, "bad", "good", run_id=run_id)
    assert report.verdict == "inconclusive" and report.battles == 0
    assert report.win_rate is None and report.judge is None and "no battles" in report.summary
    assert "candidate win rate (95% CI over cases): -" in compare_markdown(report)


def test_an_unknown_judge_is_an_input_error(judged: tuple[Store, int, JudgeSpec]) -> None:
    store, run_id, _ = judged
    with pytest.raises(InputError, match="judge 'nope' has no battles"):
        compare_variants(store, "bad", "good", run_id=run_id, judge_key="nope")


def _coin_flip(messages: list[BaseMessage]) -> str:
    """Prefers the answer saying 300 on cases #0 and #1, the other one on #2 and #3."""
    a, b = _answers(messages)
    flip = any(f"#{i}" in str(messages[-1].content) for i in (2, 3))
    good_a, good_b = ("300" in a) != flip, ("300" in b) != flip
    return "[[A>B]]" if good_a and not good_b else "[[B>A]]" if good_b and not good_a else "[[A=B]]"


def test_a_verdict_from_a_judge_that_cannot_beat_chance_says_so(store: Store) -> None:
    run_id = _run(store)
    score_run(store, run_id)
    register_fake("coin", [_coin_flip], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:coin")), progress=False)
    report = compare_variants(store, "same", "good", run_id=run_id, bootstrap=200)
    assert report.judge_accuracy is not None and report.judge_accuracy.accuracy == 0.5
    assert report.judge_accuracy.beats_chance is False
    assert "judge decisive-pair accuracy 0.50 [" in report.summary
    assert "cannot beat chance" in report.summary
    assert any("its win rate is no evidence either way" in r for r in report.reasons)
    assert "cannot beat chance" in compare_markdown(report)


def test_the_win_rate_interval_is_at_the_level_alpha_asks(
    judged: tuple[Store, int, JudgeSpec],
) -> None:
    """alpha (the gate's rules.alpha, compare's --alpha) sets the interval's level and the
    report says which: a wider 99% interval, a narrower 80% one, on the same battles."""
    store, run_id, _ = judged
    default = compare_variants(store, "bad", "good", run_id=run_id, bootstrap=200)
    strict = compare_variants(store, "bad", "good", run_id=run_id, bootstrap=200, alpha=0.01)
    loose = compare_variants(store, "bad", "good", run_id=run_id, bootstrap=200, alpha=0.2)
    assert strict.ci_low is not None and default.ci_low is not None and loose.ci_low is not None
    assert strict.ci_low < default.ci_low < loose.ci_low
    assert (strict.alpha, default.alpha) == (0.01, 0.05)
    assert "(99% CI over cases)" in compare_markdown(strict)
    assert "(95% CI over cases)" in compare_markdown(default)
    assert "(80% CI over cases)" in compare_markdown(loose)

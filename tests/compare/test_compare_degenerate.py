"""`arena compare` never calls a verdict from a degenerate interval: identical answers are
said so, and a handful of ties is no proof of non-inferiority (arena/compare/_compare.py)."""

from __future__ import annotations

import pytest

from arena.battles import judge_run
from arena.cli import main
from arena.compare._compare import compare_markdown, compare_variants
from arena.evaluation.run_scores import score_run
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec
from tests.battles.test_judges import _run

pytestmark = pytest.mark.unit


def _judged(store: Store, verdict: str) -> int:
    run_id = _run(store)
    score_run(store, run_id)
    register_fake("steady", [verdict], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:steady")), progress=False)
    return run_id


def test_identical_answers_are_said_so_not_called_non_inferior(store: Store) -> None:
    run_id = _judged(store, "[[A=B]]")
    report = compare_variants(store, "good", "same", run_id=run_id, bootstrap=200)
    assert report.verdict == "identical" and report.battles == 4
    assert report.summary.startswith("same vs good: IDENTICAL ANSWERS (")
    assert "every one of the 4 battles is a tie between identical answers" in report.summary
    assert "[0.50, 0.50]" not in report.summary
    assert compare_markdown(report).startswith("### same vs good: **identical answers**")


def test_a_handful_of_judged_ties_is_inconclusive_with_a_real_interval(store: Store) -> None:
    run_id = _judged(store, "[[A=B]]")  # the judge calls every different pair a tie
    report = compare_variants(store, "bad", "good", run_id=run_id, bootstrap=200)
    assert report.win_rate == 0.5 and report.battles == 4
    assert report.ci_low is not None and report.ci_high is not None
    assert report.ci_high - report.ci_low > 0.3  # four ties: no zero-width interval
    assert report.verdict == "inconclusive"


def test_the_cli_exits_0_on_identical_answers(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = _judged(Store(db_url), "[[A=B]]")
    argv = ["compare", "--baseline", "good", "--candidate", "same", "--run", str(run_id)]
    assert main([*argv, "--bootstrap", "100", "--db", db_url]) == 0
    assert "IDENTICAL ANSWERS" in capsys.readouterr().out

"""Calibration that accumulates: labels pooled over the runs of one judge spec on one dataset
(a rerun of the same pairs adds none), and the demo's selective line on data of the demo's
shape (3 variants x 8 cases, the judge right on 13 of 14 decisive pairs)."""

from __future__ import annotations

import pytest

from arena.battles import Battle, judge_run
from arena.evaluation.run_scores import score_run
from arena.golden import GoldenDataset
from arena.models import ModelConfig, register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.trust import GoldenMark, selective_health
from arena.trust._selective import SelectiveCalibration
from arena.variants.variant import Variant
from judges import JudgeSpec
from judges._types import SelectiveSettings, Verdict
from tests.battles.test_judges import BAD, GOOD, _prefers_300

pytestmark = pytest.mark.unit

SELECTIVE = JudgeSpec(model=ModelConfig(spec="fake:pool"), selective=SelectiveSettings())
VARIANTS = ("baseline", "prompt-v2", "small-model")
PAIRS = (("baseline", "prompt-v2"), ("baseline", "small-model"), ("prompt-v2", "small-model"))


def _demo_battle(i: int, a: str, b: str, winner: str, strong: bool) -> Battle:
    verdict = Verdict(label="A>B" if winner == "model_a" else "A=B", judge=SELECTIVE)
    return Battle(
        run_id=1,
        case_id=f"CRIT-{i}",
        variant_a=a,
        variant_b=b,
        hash_a="h",
        hash_b="g",
        result_a_id=100 * i + VARIANTS.index(a),
        result_b_id=100 * i + VARIANTS.index(b),
        winner=winner,
        strong=strong,
        judge=SELECTIVE,
        verdict_ab=verdict,
        verdict_ba=verdict,
    )


def test_the_demos_selective_line_is_never_empty() -> None:
    from arena.trust._selective_run import golden_labelled

    # 8 cases x 3 pairs. The small model fails cases 0-6 (14 decisive pairs: baseline and
    # prompt-v2 both beat it); the judge names the passing answer in 13 of them (one strongly
    # wrong), and ties on the 10 pairs the golden checks cannot separate.
    battles, marks = [], {}
    for i in range(8):
        for v in VARIANTS:
            passed = not (v == "small-model" and i < 7)
            marks[100 * i + VARIANTS.index(v)] = GoldenMark(1.0 if passed else 0.0, passed)
        for a, b in (
            ("baseline", "prompt-v2"),
            ("baseline", "small-model"),
            ("prompt-v2", "small-model"),
        ):
            decisive = b == "small-model" and i < 7
            wrong = decisive and i == 0 and a == "baseline"
            winner = "model_b" if wrong else "model_a" if decisive else "tie"
            battles.append(_demo_battle(i, a, b, winner, strong=decisive and i % 2 == 0))
    labelled = golden_labelled(battles, marks)
    assert len(labelled) == 14 and sum(x.agrees for x in labelled) == 13
    health = selective_health(battles, labelled, SELECTIVE, "critical")
    line = health.text()
    assert health.decisive == 14 and health.scored == 24
    found = health.calibration
    assert found is not None and found.calibration_pairs == 14
    # Either verdicts are given, or the line says how many labelled pairs would likely do it.
    assert (health.coverage or 0) > 0 or (
        found.pairs_needed is not None
        and f"about {found.pairs_needed} labelled pairs ({found.pairs_needed - 14} more)" in line
    )


def _dataset() -> GoldenDataset:
    cases = [
        {
            "id": f"C-{i}",
            "input": f"What's 25% of 1200? #{i}",
            "category": "happy_path",
            "expected_output_contains": ["300"],
        }
        for i in range(8)
    ]
    return GoldenDataset.model_validate(
        {"name": "t", "available_tools": ["calculate"], "test_cases": cases}
    )


def _judged(store: Store, cases: list[str], rerun: bool = False) -> int:
    register_fake("good", [GOOD], cycle=True)
    register_fake("bad", [BAD], cycle=True)
    register_fake("same", [GOOD], cycle=True)
    register_fake("pool", [_prefers_300], cycle=True)
    variants = [
        Variant.model_validate({"name": n, "model": {"spec": f"fake:{n}"}, "tools": ["calculate"]})
        for n in ("good", "bad", "same")
    ]
    options = RunOptions(progress=False, case_ids=cases, rerun=rerun)
    run_id = run_suite(store, _dataset(), variants, options).run_id
    score_run(store, run_id)
    judge_run(store, run_id, SELECTIVE, progress=False)
    return run_id


@pytest.mark.system  # three runs, judged and stored
def test_labels_pool_over_runs_of_one_judge_and_a_rerun_adds_none(store: Store) -> None:
    from arena.trust._run_health import run_health

    first = _judged(store, ["C-0", "C-1", "C-2", "C-3"])
    second = _judged(store, ["C-4", "C-5", "C-6", "C-7"])
    assert first != second

    def calibration(run_id: int) -> SelectiveCalibration:
        (health,) = run_health(store, run_id, rounds=50).health
        assert health.selective is not None and health.selective.calibration is not None
        return health.selective.calibration

    pooled = calibration(second)
    # 8 golden-decisive pairs a run (good and same beat bad on 4 cases): 16 together.
    assert pooled.calibration_pairs == 16 and pooled.runs == [first, second]
    assert f"calibrated on 16 labelled pairs (golden 16) pooled over runs {first}, {second}" in (
        pooled.text()
    )
    assert pooled.threshold is not None  # 16 agreeing pairs back 80% at 0.1; 8 could not
    stored = [b for b in store.battles(second, SELECTIVE.key) if b.verdict_ab is not None]
    assert any(not b.abstained for b in stored)  # `arena judge` pooled too
    third = _judged(store, ["C-4", "C-5", "C-6", "C-7"], rerun=True)
    assert third not in (first, second)
    again = calibration(third)
    assert again.calibration_pairs == 16  # the rerun's pairs replace run 2's, adding none
    assert again.labels == 24 and third in again.runs and second not in again.runs

"""The open-ended bench's selective column: the product's calibration (``arena.trust.calibrate``)
on the calibration part, coverage and agreement on the test part, repeated random splits."""

from __future__ import annotations

import numpy as np

from arena.outputs import LabelledPair
from arena.trust import Labelled, PairId, calibrate
from tests.support.benchmarks import load_benchmark

axis = load_benchmark("open_ended_axis")


def _separating(n: int, seed: int = 1) -> list[Labelled | None]:
    """A judge whose confident verdicts agree with people and whose unsure ones do not."""
    rng = np.random.default_rng(seed)
    found: list[Labelled | None] = []
    for i in range(n):
        agrees = i % 2 == 0
        score = rng.uniform(0.6, 1.0) if agrees else rng.uniform(0.0, 0.3)
        found.append(
            Labelled(float(score), agrees, "llmbar", PairId.of(None, f"s{i}", 0, "1", "2"))
        )
    return found


def _coin(n: int, seed: int = 2) -> list[Labelled | None]:
    """A judge whose confidence says nothing: agreement is a coin at every score."""
    rng = np.random.default_rng(seed)
    return [
        Labelled(
            float(rng.uniform()),
            bool(rng.uniform() < 0.5),
            "llmbar",
            PairId.of(None, f"c{i}", 0, "1", "2"),
        )
        for i in range(n)
    ]


def test_a_separating_judge_gives_verdicts_that_reach_the_target() -> None:
    items = _separating(160)
    found = axis.guaranteed_coverage(items[:80], items[80:])
    expected = calibrate([x for x in items[:80] if x is not None])
    assert expected is not None and expected.threshold_score is not None
    assert found.threshold == expected.threshold_score  # the product's calibration, as is
    assert found.pairs == 80 and found.given > 0
    assert found.coverage > 0.3 and found.agreement is not None and found.agreement >= 0.8
    assert found.given == sum(1 for x in items[80:] if x and x.score >= expected.threshold_score)


def test_repeated_splits_of_a_separating_judge_meet_the_target() -> None:
    figures = axis.repeated_splits(_separating(120), 60, splits=40)
    assert figures.splits == 40 and figures.vacuous == 0
    # at least as often as the guarantee says (1 - error of the splits); the threshold may
    # dip into the unsure verdicts while the bound still holds, so not always
    assert figures.met >= 36 and figures.mean_coverage > 0.3
    assert "40 random splits (60 calibration / 60 test pairs)" in figures.text(0.8, 0.1)


def test_a_coin_gets_no_verdict_in_most_splits() -> None:
    figures = axis.repeated_splits(_coin(60), 20, splits=40)
    assert figures.vacuous >= 36  # the guarantee is then vacuous: everything goes to people
    assert figures.mean_coverage < 0.1
    if figures.vacuous == figures.splits:
        assert "all pairs go to people" in figures.text(0.8, 0.1)


def test_a_mode_row_is_labelled_with_peoples_choice() -> None:
    def pair(i: int, preferred: int) -> LabelledPair:
        return LabelledPair(
            id=f"p{i}", question="q", answer_1="a", answer_2="b", preferred=preferred,
            held_out=True,
        )  # fmt: skip

    row = axis.ModeRow("judge")
    row.outcome = {"p1": 1, "p2": 1, "p3": 0, "p4": None}
    row.score = {"p1": 0.9, "p2": 0.7, "p3": 0.0, "p4": None}
    found = axis.labelled(row, [pair(1, 1), pair(2, 2), pair(3, 1), pair(4, 2)])
    assert [x and (x.score, x.agrees) for x in found] == [
        (0.9, True),
        (0.7, False),
        (0.0, False),  # a judge's tie never agrees with a person's choice
        None,  # a judge error: no labelled verdict
    ]

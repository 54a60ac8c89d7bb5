"""Agreement with people, the fitted combination of modes, coverage when abstaining."""

from __future__ import annotations

import random

import pytest

from judges._open_ended import (
    agreement_with_people,
    choice,
    coverage_at,
    fit_combination,
)


def test_agreement_counts_ties_as_mt_bench_does() -> None:
    people = [1, 2, 1, 2, 1, 0]
    judge = [1, 1, 0, 2, None, 0]
    figures = agreement_with_people(people, judge)
    assert figures.pairs == 5  # the pair without a verdict is left out
    assert figures.with_ties == pytest.approx(3 / 5)  # 1=1, 2=2, tie=tie
    assert figures.decided == 3 and figures.without_ties == pytest.approx(2 / 3)
    # kappa by hand: observed 0.6; people {1: 2, 2: 2, 0: 1}, judge {1: 2, 2: 1, 0: 2} of 5.
    expected = (2 * 2 + 2 * 1 + 1 * 2) / 25
    assert figures.kappa == pytest.approx((0.6 - expected) / (1 - expected))


def test_no_verdicts_give_no_figures() -> None:
    figures = agreement_with_people([1, 2], [None, None])
    assert figures.pairs == 0 and figures.with_ties is None and figures.kappa is None


def test_a_probability_becomes_a_choice_with_a_tie_margin() -> None:
    assert [choice(p, 0.05) for p in (0.9, 0.1, 0.52, None)] == [1, 2, 0, None]


def test_the_fit_weighs_the_mode_that_knows_and_not_the_coin() -> None:
    rng = random.Random(3)
    rows, preferred = [], []
    for _ in range(200):
        truth = rng.choice((1, 2))
        right = 0.8 if truth == 1 else 0.2
        knows = right if rng.random() < 0.85 else 1 - right
        rows.append([knows, rng.uniform(0.05, 0.95)])
        preferred.append(truth)
    fit = fit_combination(["grades", "coin"], rows, preferred)
    assert fit.pairs == 200 and fit.modes == ("grades", "coin")
    assert fit.weights[0] > 0.5 and abs(fit.weights[1]) < 0.3
    assert fit.p_first([0.8, 0.5]) > 0.7 and fit.p_first([0.2, 0.5]) < 0.3


def test_a_fit_needs_one_probability_per_mode() -> None:
    with pytest.raises(ValueError, match="one probability per mode"):
        fit_combination(["a", "b"], [[0.5]], [1])


def test_coverage_drops_and_agreement_rises_as_the_judge_abstains() -> None:
    people = [1, 1, 2, 2]
    p_first = [0.95, 0.55, 0.1, 0.6]  # sure and right, unsure right, sure right, unsure wrong
    assert coverage_at(people, p_first, 0.0) == (1.0, 0.75)
    assert coverage_at(people, p_first, 0.5) == (0.5, 1.0)
    assert coverage_at(people, p_first, 0.95) == (0.0, None)

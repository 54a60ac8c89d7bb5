"""The threshold search's guarantee and power, by simulation of the model the issue names:
a verdict's score ``s ~ Beta(theta, 1)`` and P(agree | s) = sigmoid(4 s), or a flat judge
whose agreement does not depend on the score. Thousands of calibrations per cell, vectorised
(:func:`arena.trust._guarantee.batch_thresholds`, the search :func:`calibrate` uses)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from arena.trust._guarantee import THRESHOLD_GRID, batch_thresholds, fixed_sequence_threshold
from arena.trust._power import ScoreModel, fit_model, pairs_needed, verdict_rate

pytestmark = pytest.mark.unit

TARGET, ERROR = 0.8, 0.1
GRID = np.asarray(THRESHOLD_GRID)


def _theta(accuracy: float) -> float:
    """The theta of Beta(theta, 1) scores whose mean sigmoid(4 s) is ``accuracy``."""
    low, high, mid = 0.01, 200.0, 1.0
    u = np.random.default_rng(0).uniform(size=100_000)
    for _ in range(50):
        mid = (low * high) ** 0.5
        s = u ** (1 / mid)  # inverse CDF of Beta(mid, 1)
        low, high = (mid, high) if (1 / (1 + np.exp(-4 * s))).mean() < accuracy else (low, mid)
    return mid


def _coverage(accuracy: float, n: int, draws: int, seed: int) -> float:
    """Mean share of the population given, over ``draws`` calibrations of ``n`` pairs."""
    theta = _theta(accuracy)
    model = ScoreModel(theta=theta, intercept=0.0, slope=4.0)
    chosen = batch_thresholds(*model.draw(draws, n, np.random.default_rng(seed)), TARGET, ERROR)
    cut = GRID[np.maximum(chosen, 0)]
    return float(np.where(chosen >= 0, stats.beta.sf(cut, theta, 1.0), 0.0).mean())


@pytest.mark.system  # 9 cells of 2000 calibrations: a few seconds
def test_a_flat_78_percent_judge_gets_verdicts_in_at_most_a_tenth_of_calibrations() -> None:
    # Every verdict agrees 78% of the time: any threshold at all breaks the 80% promise.
    rng = np.random.default_rng(5)
    for n in (10, 14, 20, 30, 50, 100, 200, 500, 1000):
        scores = rng.beta(1.0, 1.0, (2000, n))
        agrees = rng.uniform(size=scores.shape) < 0.78
        rate = float((batch_thresholds(scores, agrees, TARGET, ERROR) >= 0).mean())
        # 2000 draws: one standard error is under 0.007, so 0.10 is told from 0.15.
        assert rate <= ERROR, (n, rate)


@pytest.mark.system  # 2000 calibrations per cell: about a second each
@pytest.mark.parametrize(("accuracy", "n", "least"), [(0.85, 100, 0.75), (0.93, 14, 0.55)])
def test_a_good_judge_keeps_its_coverage(accuracy: float, n: int, least: float) -> None:
    assert _coverage(accuracy, n, draws=2000, seed=3) >= least


def test_the_batch_search_is_the_search_calibrate_uses() -> None:
    model = ScoreModel(theta=_theta(0.85), intercept=0.0, slope=4.0)
    scores, agrees = model.draw(40, 60, np.random.default_rng(1))
    chosen = batch_thresholds(scores, agrees, TARGET, ERROR)
    for row, index in zip(range(40), chosen, strict=True):
        one = fixed_sequence_threshold(list(scores[row]), list(agrees[row]), TARGET, ERROR)
        assert one.threshold == (None if index < 0 else GRID[index])
    assert (chosen >= 0).any() and (chosen < 0).any()


def test_the_sequence_starts_a_fifth_of_the_way_down() -> None:
    # 100 pairs: the most confident one is a miss (1 of 11 stops a sequence starting at 11
    # verdicts: P(at most 1 of 11) = 0.32), the next 79 agree; starting at 20 verdicts (1 of
    # 20: 0.07) the search reaches them.
    scores = np.linspace(1.0, 0.01, 100)
    agrees = np.array([0 < i < 80 for i in range(100)])
    found = fixed_sequence_threshold(list(scores), list(agrees), TARGET, ERROR)
    assert found.threshold is not None and found.given >= 75


def test_the_power_estimate_says_how_many_pairs_would_likely_give_a_verdict() -> None:
    # Ten text verdicts, nine right: too few for 80% at 0.1 (11 are needed), a few more would
    # likely do; the estimate's own model finds a threshold in half the calibrations there.
    scores, agrees = [1.0] * 6 + [0.75] * 3 + [0.0], [True] * 9 + [False]
    needed = pairs_needed(scores, agrees, TARGET, ERROR)
    assert needed is not None and 11 <= needed <= 80
    fitted = fit_model(scores, agrees)
    assert set(fitted.pool) == {1.0, 0.75, 0.0}
    assert (
        verdict_rate(fitted, needed, TARGET, ERROR) >= 0.5 > verdict_rate(fitted, 11, TARGET, ERROR)
    )
    coin = pairs_needed([0.5] * 30, [i % 2 == 0 for i in range(30)], TARGET, ERROR)
    assert coin is None  # a coin never gets there

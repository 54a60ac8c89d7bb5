"""The betting confidence sequence against known truths, by simulation: it covers the mean at
every sample size at once (so peeking after every case is safe), a fixed-n interval peeked at
does not, and the without-replacement version closes on the finite set's exact mean."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from arena.sequential import BettingCS, betting_cs

pytestmark = pytest.mark.unit
RUNS, STEPS = 2000, 100


def _ever_missed(alpha: float, draw: object, mean: float, seed: int) -> float:
    """Share of RUNS sequences whose interval excluded ``mean`` at some step."""
    rng = np.random.default_rng(seed)
    cs = BettingCS(alpha, sequences=RUNS, grid=100)
    missed = np.zeros(RUNS, dtype=bool)
    for _ in range(STEPS):
        cs.update(draw(rng))  # type: ignore[operator]
        lower, upper = cs.bounds()
        missed |= (lower > mean) | (upper < mean)
    return float(missed.mean())


def _three_point(rng: np.random.Generator) -> np.ndarray:
    return rng.choice([0.0, 0.5, 1.0], size=RUNS, p=[0.3, 0.4, 0.3])


@pytest.mark.system  # thousands of simulated sequences: seconds of CPU
def test_coverage_holds_at_every_time_and_tracks_the_level() -> None:
    miss_95 = _ever_missed(0.05, _three_point, 0.5, seed=1)
    miss_90 = _ever_missed(0.10, _three_point, 0.5, seed=2)
    assert miss_95 <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / RUNS)
    assert miss_90 <= 0.10 + 3 * np.sqrt(0.10 * 0.90 / RUNS)
    assert miss_90 > miss_95 + 0.005  # the level matters: 90% is visibly looser than 95%


@pytest.mark.system  # thousands of simulated sequences: seconds of CPU
def test_bernoulli_far_from_one_half_is_covered_too() -> None:
    draw = lambda rng: (rng.random(RUNS) < 0.2).astype(float)  # noqa: E731
    assert _ever_missed(0.05, draw, 0.2, seed=3) <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / RUNS)


@pytest.mark.system  # thousands of simulated sequences: seconds of CPU
def test_peeking_at_a_fixed_n_interval_after_every_case_inflates_the_error() -> None:
    rng = np.random.default_rng(4)
    x = rng.choice([0.0, 0.5, 1.0], size=(RUNS, STEPS), p=[0.3, 0.4, 0.3])
    n = np.arange(1, STEPS + 1)
    mean = x.cumsum(axis=1) / n
    sd = np.sqrt(np.maximum((x**2).cumsum(axis=1) / n - mean**2, 1e-12))
    z = norm.ppf(0.975)
    naive = (np.abs(mean - 0.5) > z * sd / np.sqrt(n))[:, 4:].any(axis=1).mean()
    betting = _ever_missed(0.05, _three_point, 0.5, seed=4)
    assert naive > 3 * 0.05 and betting <= 0.06


def test_it_narrows_and_moves_to_a_clear_effect() -> None:
    rng = np.random.default_rng(5)
    lower, upper = betting_cs((rng.random(400) < 0.8).astype(float))
    assert upper[-1] - lower[-1] < 0.2 and lower[-1] > 0.6
    assert np.all(np.diff(lower) >= 0) and np.all(np.diff(upper) <= 0)  # running intersection


@pytest.mark.system  # thousands of simulated sequences: seconds of CPU
def test_without_replacement_covers_and_closes_on_the_exact_finite_mean() -> None:
    rng = np.random.default_rng(6)
    population = (rng.random(60) < 0.4).astype(float)
    truth = population.mean()
    cs = BettingCS(0.05, sequences=RUNS, population=60, grid=100)
    orders = np.argsort(rng.random((RUNS, 60)), axis=1)
    missed = np.zeros(RUNS, dtype=bool)
    widths = []
    for t in range(60):
        cs.update(population[orders[:, t]])
        lower, upper = cs.bounds()
        missed |= (lower > truth + 1e-9) | (upper < truth - 1e-9)
        widths.append(float(np.mean(upper - lower)))
    assert missed.mean() <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / RUNS)
    assert widths[-1] < 1e-9 and widths[45] < widths[15]  # exact once every case is seen
    with_replacement = betting_cs(population[orders[0]])
    assert widths[50] < float(with_replacement[1][50] - with_replacement[0][50])


def test_bad_outcomes_and_too_many_draws_are_refused() -> None:
    cs = BettingCS(0.05, population=1)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        cs.update([1.5])
    cs.update([1.0])
    with pytest.raises(ValueError, match="all 1 cases"):
        cs.update([0.0])
    with pytest.raises(ValueError, match="alpha"):
        BettingCS(1.5)

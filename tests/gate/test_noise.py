"""The gate's statistics against simulated truth: the paired-bootstrap interval of the suite
score change covers a known true drop 93-97% of the time; the exact test matches scipy."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from arena.gate import _noise as noise
from arena.gate._noise import bootstrap_mean_intervals, paired_bootstrap, pass_drop_p_value

pytestmark = pytest.mark.unit

SIMULATIONS = 2000


def _coverage(change: np.ndarray, truth: float, seed: int) -> float:
    low, high = bootstrap_mean_intervals(change, rounds=1000, seed=seed)
    return float(((low <= truth) & (truth <= high)).mean())


@pytest.mark.parametrize("seed", [0, 1])
def test_interval_covers_a_known_drop_of_pass_fail_repeats(seed: int) -> None:
    """40 cases, 3 pass/fail repeats each; every case's pass probability falls by 15%.

    Case pass probabilities are Beta(4, 2) (mean 2/3), so the true drop of the suite score
    (the mean pass rate) is exactly 0.15 * 2/3 = 0.1.
    """
    rng = np.random.default_rng(seed)
    p_base = rng.beta(4, 2, size=(SIMULATIONS, 40))
    base = (rng.random((SIMULATIONS, 40, 3)) < p_base[..., None]).mean(axis=-1)
    cand = (rng.random((SIMULATIONS, 40, 3)) < 0.85 * p_base[..., None]).mean(axis=-1)
    assert 0.93 <= _coverage(cand - base, -0.1, seed) <= 0.97


def test_interval_covers_a_known_drop_with_few_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    """8 cases (the critical tier's size), continuous scores, 3 repeats: the small-sample
    factor keeps coverage at 95%; the plain percentile interval would cover about 89%."""
    rng = np.random.default_rng(7)
    quality = rng.normal(0.7, 0.15, size=(SIMULATIONS, 8))
    drop = rng.normal(0.08, 0.1, size=(SIMULATIONS, 8))
    base = (quality[..., None] + rng.normal(0, 0.2, (SIMULATIONS, 8, 3))).mean(axis=-1)
    cand = ((quality - drop)[..., None] + rng.normal(0, 0.2, (SIMULATIONS, 8, 3))).mean(-1)
    assert 0.93 <= _coverage(cand - base, -0.08, 7) <= 0.97
    monkeypatch.setattr(noise, "small_sample_factor", lambda n, alpha=0.05: 1.0)
    assert _coverage(cand - base, -0.08, 7) < 0.92


def test_paired_bootstrap_of_equal_scores_is_zero() -> None:
    interval = paired_bootstrap([0.5, 0.9, 0.7], [0.5, 0.9, 0.7])
    assert (interval.estimate, interval.low, interval.high) == (0.0, 0.0, 0.0)
    assert not interval.excludes(0.0)


def test_paired_bootstrap_estimate_and_seed() -> None:
    base = [0.9, 0.8, 0.85, 0.95, 0.9, 0.7]
    cand = [0.6, 0.7, 0.5, 0.8, 0.65, 0.6]
    first = paired_bootstrap(base, cand, seed=3)
    assert first.estimate == pytest.approx(np.mean(cand) - np.mean(base))
    assert first.low < first.estimate < first.high < 0
    assert first.excludes(0.0) and first.n == 6
    assert paired_bootstrap(base, cand, seed=3) == first


def test_paired_bootstrap_rejects_unpaired_input() -> None:
    with pytest.raises(ValueError, match="same cases"):
        paired_bootstrap([0.1], [0.1, 0.2])
    with pytest.raises(ValueError, match="no cases"):
        paired_bootstrap([], [])


@pytest.mark.parametrize(
    ("b", "nb", "c", "nc"),
    [
        (3, 3, 0, 3),
        (10, 10, 6, 10),
        (2, 3, 1, 3),
        (1, 1, 0, 1),
        (5, 5, 5, 5),
        (0, 4, 0, 4),
        (7, 9, 2, 11),
    ],
)
def test_exact_test_matches_scipy(b: int, nb: int, c: int, nc: int) -> None:
    table = [[b, nb - b], [c, nc - c]]
    expected = stats.fisher_exact(table, alternative="greater").pvalue
    assert pass_drop_p_value(b, nb, c, nc) == pytest.approx(expected)


def test_exact_test_known_values() -> None:
    assert pass_drop_p_value(3, 3, 0, 3) == pytest.approx(0.05)
    assert pass_drop_p_value(1, 1, 0, 1) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        pass_drop_p_value(4, 3, 0, 3)


@pytest.mark.parametrize("n", [2, 5, 30, 400])
@pytest.mark.parametrize("alpha", [0.05, 0.2])
def test_small_sample_factor_matches_scipy_stats(n: int, alpha: float) -> None:
    q = 1 - alpha / 2
    reference = stats.t.ppf(q, n - 1) / stats.norm.ppf(q) * np.sqrt(n / (n - 1))
    assert noise.small_sample_factor(n, alpha) == pytest.approx(reference, rel=1e-12)
    assert noise.small_sample_factor(1, alpha) == 1.0

"""Noise-aware statistics of the gate: the paired bootstrap of the suite-score change and the
one-sided exact test of a case's pass-rate drop.

**Paired bootstrap.** Each case compared by both sides gives one paired difference
``candidate mean score - baseline mean score`` (the mean over that side's repeats). Cases are
resampled with replacement, each with all its repeats (a cluster bootstrap: repeat noise and
case-sampling noise are each counted once; resampling the repeats again inside a case would
count repeat noise twice and over-cover). The interval is the percentile interval of the
resampled mean, widened about the observed mean by the small-sample factor
``t(N-1, 1 - alpha/2) / z(1 - alpha/2) * sqrt(N / (N - 1))`` (a plain percentile bootstrap of a
mean under-covers with few cases: about 89% at 10 cases). Simulated with a known true drop, the
95% interval covers it 93-97% of the time from about 12 cases with repeats
(``tests/gate/test_noise.py``).

**Exact test.** A case's pass-rate drop from ``passes_b / n_b`` to ``passes_c / n_c`` is
significant when Fisher's one-sided exact p-value (hypergeometric lower tail) is below alpha.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, sqrt
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

DEFAULT_ROUNDS = 2000
"""Bootstrap rounds of the suite-score interval."""
DEFAULT_ALPHA = 0.05
"""Two-sided level of the interval (95%) and one-sided level of the exact test."""


class Interval(BaseModel):
    """A point estimate with its confidence interval."""

    model_config = ConfigDict(extra="forbid")

    estimate: float
    low: float
    high: float
    level: float = 0.95
    n: int = 0

    def excludes(self, value: float) -> bool:
        """True when ``value`` lies outside the interval."""
        return value < self.low or value > self.high


def small_sample_factor(n: int, alpha: float = DEFAULT_ALPHA) -> float:
    """``t(n-1) / z * sqrt(n / (n-1))``: how much a percentile interval of a mean is widened."""
    # scipy.stats' t.ppf and norm.ppf are these functions; importing scipy.stats would cost
    # every gate most of a second.
    from scipy.special import ndtri, stdtrit

    if n < 2:
        return 1.0
    q = 1 - alpha / 2
    return float(stdtrit(n - 1, q) / ndtri(q) * sqrt(n / (n - 1)))


def bootstrap_mean_intervals(
    diffs: ArrayLike, *, rounds: int = DEFAULT_ROUNDS, seed: int = 0, alpha: float = DEFAULT_ALPHA
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Vectorised intervals of the mean of each row of ``diffs`` (shape ``(S, N)``).

    One multiplicity matrix (``rounds`` x ``N`` multinomial counts) is shared by the rows, so
    ``S`` independent data sets cost one matrix product. Returns ``(low, high)`` arrays.
    """
    import numpy as np

    data = np.atleast_2d(np.asarray(diffs, dtype=float))
    n = data.shape[1]
    if rounds < 1:
        raise ValueError("rounds must be >= 1")
    if n == 0:
        raise ValueError("no cases to bootstrap")
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=rounds).astype(float)
    means = data @ counts.T / n
    low, high = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=1)
    centre = data.mean(axis=1)
    factor = small_sample_factor(n, alpha)
    return centre - (centre - low) * factor, centre + (high - centre) * factor


def paired_bootstrap(
    baseline: Sequence[float],
    candidate: Sequence[float],
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
) -> Interval:
    """Interval of ``mean(candidate) - mean(baseline)`` over paired per-case means."""
    if len(baseline) != len(candidate):
        raise ValueError("baseline and candidate must hold the same cases")
    if not baseline:
        raise ValueError("no cases to compare")
    diffs = [c - b for b, c in zip(baseline, candidate, strict=True)]
    estimate = sum(diffs) / len(diffs)
    low, high = bootstrap_mean_intervals([diffs], rounds=rounds, seed=seed, alpha=alpha)
    return Interval(
        estimate=estimate, low=float(low[0]), high=float(high[0]), level=1 - alpha, n=len(diffs)
    )


def pass_drop_p_value(passes_b: int, n_b: int, passes_c: int, n_c: int) -> float:
    """Fisher's one-sided exact p-value that the candidate's pass rate is lower.

    Under the null both sides share one pass rate, so given the total number of passes the
    candidate's count is hypergeometric; the p-value is P(X <= passes_c).
    """
    if not (0 <= passes_b <= n_b and 0 <= passes_c <= n_c) or n_b < 1 or n_c < 1:
        raise ValueError(f"bad counts: {passes_b}/{n_b} and {passes_c}/{n_c}")
    total = passes_b + passes_c
    denominator = comb(n_b + n_c, total)
    low = max(0, total - n_b)
    return sum(comb(n_c, x) * comb(n_b, total - x) for x in range(low, passes_c + 1)) / denominator

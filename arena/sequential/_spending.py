"""A known-horizon boundary: Lan-DeMets alpha spending of O'Brien-Fleming type up to a budget.

When the budget ``N`` (the most cases a run may use) is fixed before the first case, the
error allowance can be spent by case ``N`` instead of being kept for ever more cases, as the
anytime-valid betting sequence (:mod:`arena.sequential._betting`) must. The sum of the
centred outcomes, ``S_t(m) = sum (x_i - m)``, scaled by ``sigma sqrt(N)``, is close to a
Brownian motion ``W(t / N)`` on the information fraction ``s = t / N``; its chance of ever
crossing a constant level ``c`` by ``s`` is ``2 (1 - Phi(c / sqrt(s)))`` (reflection
principle), which is the Lan-DeMets O'Brien-Fleming spending function. With
``c = z_{1 - alpha / 4}`` each side spends exactly ``alpha / 2`` by the budget when looked
at continuously (a little less with a look after each case). Written as an interval of the
mean after ``t`` cases:

    m is kept  <=>  |S_t(m)| < c * sigma_t(m) * sqrt(N)          (t <= N)

where ``sigma_t(m)^2`` is the mean squared deviation *from the tested mean* ``m`` (a score
test: a path far from ``m`` does not shrink its own yardstick), shrunk towards 1/4 (the
largest variance an outcome in [0, 1] can have) by :data:`PRIOR` pseudo-cases, so a run of
ties cannot make a single win look decisive. Solved for ``m`` it is ``mean_t -+ h_t`` with
``h_t = sqrt(k (D_t + PRIOR / 4) / (t (t - k)))``, ``k = c^2 N / (t + PRIOR)`` and ``D_t`` the
squared deviations from the running mean: no bound at all while ``t <= k`` (an
O'Brien-Fleming boundary stops early only on a large effect), and at the budget about
``c / 1.96`` times the fixed-size 95% interval (2.24 instead of 1.96 standard errors).

Unlike the betting sequence the guarantee is asymptotic (the normal approximation of a sum
of bounded outcomes) and holds **up to the budget only**: the whole allowance is spent by
case ``N``, so a run continued past it would spend it again
(:func:`arena.sequential.continuation_valid`). The simulation tests check the level on
heavy ties, skewed and per-case heterogeneous outcomes.

The boundary is a pure function of ``(alpha, budget)`` and the outcomes so far, so a
continued run rebuilds it from the stored plan.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

#: Pseudo-cases of variance 1/4 the running variance is shrunk with.
PRIOR = 2.0


def critical(alpha: float) -> float:
    """The constant B-value boundary ``c`` that spends ``alpha / 2`` per side by the budget."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    from scipy.special import ndtri  # scipy.stats' norm.ppf, without its second of import

    return float(ndtri(1 - alpha / 4))


def spent(alpha: float, fraction: float) -> float:
    """Alpha spent per side by information fraction ``t / N`` (Lan-DeMets, O'Brien-Fleming
    type): ``2 (1 - Phi(c / sqrt(fraction)))``, ``alpha / 2`` at ``fraction`` 1."""
    if fraction <= 0:
        return 0.0
    from scipy.special import ndtr  # norm.sf(x) is ndtr(-x)

    return float(2 * ndtr(-critical(alpha) / math.sqrt(min(fraction, 1.0))))


def half_width(
    alpha: float, budget: int, t: int, spread: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Half the width of the known-horizon interval after ``t`` of ``budget`` cases, from
    ``spread``, the sum of squared deviations from the running mean (module docstring):
    ``inf`` while no mean can be rejected yet."""
    k = critical(alpha) ** 2 * budget / (t + PRIOR)
    if t <= k:
        return np.full(spread.shape, np.inf)
    return np.asarray(np.sqrt(k * (spread + PRIOR / 4) / (t * (t - k))), dtype=float)


class SpendingCS:
    """The known-horizon interval of the mean of [0, 1] outcomes, for ``sequences`` runs at
    once (module docstring); the same face as :class:`arena.sequential.BettingCS`
    (``update``, ``bounds``, ``mean``, ``t``). Refuses an outcome past the budget."""

    def __init__(self, alpha: float = 0.05, *, budget: int, sequences: int = 1) -> None:
        if budget < 1:
            raise ValueError(f"budget must be at least 1, got {budget}")
        critical(alpha)
        self.alpha, self.budget = alpha, budget
        self.population: int | None = None
        self.t = 0
        self.total = np.zeros(sequences)
        self.squares = np.zeros(sequences)

    def update(self, x: ArrayLike) -> None:
        """Add one outcome per sequence (each in [0, 1])."""
        values = np.asarray(x, dtype=float).reshape(-1)
        if values.size != self.total.size:
            raise ValueError(f"need {self.total.size} outcomes, got {values.size}")
        if np.any(values < 0) or np.any(values > 1) or np.any(np.isnan(values)):
            raise ValueError("outcomes must lie in [0, 1]")
        if self.t >= self.budget:
            raise ValueError(
                f"the budget of {self.budget} cases is spent: the known-horizon boundary has "
                "no alpha left for more (see continuation_valid)"
            )
        self.t += 1
        self.total += values
        self.squares += values * values

    def spread(self) -> NDArray[np.float64]:
        """The sum of squared deviations from the running mean per sequence."""
        if not self.t:
            return np.zeros(self.total.size)
        return np.maximum(self.squares - self.total**2 / self.t, 0.0)

    def sigma(self) -> NDArray[np.float64]:
        """The running standard deviation, shrunk towards 1/2 by :data:`PRIOR` pseudo-cases."""
        return np.asarray(np.sqrt((self.spread() + PRIOR / 4) / (self.t + PRIOR)), dtype=float)

    def mean(self) -> NDArray[np.float64]:
        """The running sample mean per sequence (0.5 before any outcome)."""
        return self.total / self.t if self.t else np.full(self.total.size, 0.5)

    def bounds(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(lower, upper) per sequence, clipped to [0, 1]."""
        if not self.t:
            return np.zeros(self.total.size), np.ones(self.total.size)
        width = half_width(self.alpha, self.budget, self.t, self.spread())
        mean = self.mean()
        return np.clip(mean - width, 0.0, 1.0), np.clip(mean + width, 0.0, 1.0)

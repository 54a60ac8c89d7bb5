"""Betting (hedged-capital) confidence sequences for the mean of [0, 1]-bounded outcomes.

Waudby-Smith & Ramdas, "Estimating means of bounded random variables by betting" (JRSS-B
2023), the hedged capital process with predictable plug-in empirical-Bernstein bets: for each
candidate mean ``m`` a gambler bets ``lambda_t`` on ``x_t - m`` upwards and downwards,

    K+_t(m) = prod (1 + l+_i (x_i - m_i)),   K-_t(m) = prod (1 - l-_i (x_i - m_i)),

and ``m`` leaves the set once ``max(K+ / 2, K- / 2) >= 1 / alpha``. Both capitals are
nonnegative martingales when ``m`` is the mean, so by Ville's inequality the true mean leaves
with probability at most ``alpha`` *ever*: the interval holds at every sample size at once,
and a run may stop whenever it likes. The bets ``l_t`` use only the outcomes before ``t``.

Without replacement (a finite set of ``population`` cases drawn in random order), the null
mean of the next draw is ``m_t = (N m - S_{t-1}) / (N - t + 1)`` (the mean of what is left),
and the set shrinks to the exact mean of the finite set when every case has been seen.

Everything here is batched: ``R`` independent sequences update together (a simulation runs
thousands at once), over a grid of candidate means.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

#: How far apart the candidate means are (the interval is widened by one step, so the
#: grid never makes it narrower than the exact one).
GRID = 1000
#: Bets are truncated at this share of the largest safe bet (the paper's ``c = 1/2``).
TRUNCATION = 0.5


class BettingCS:
    """Online hedged-capital confidence sequences for ``sequences`` means at once.

    ``update(x)`` adds one outcome in [0, 1] per sequence; ``lower``/``upper`` are the
    running-intersection bounds, valid at every step simultaneously with probability
    ``1 - alpha`` (each side misses with at most ``alpha / 2``). ``population`` switches to
    sampling without replacement from a finite set of that many cases. ``horizon`` tunes the
    bets to be sharpest around that many outcomes (the paper's fixed-n plug-in bet); any
    choice keeps the guarantee, since the bets only ever use past outcomes.
    """

    def __init__(
        self,
        alpha: float = 0.05,
        *,
        sequences: int = 1,
        population: int | None = None,
        grid: int = GRID,
        horizon: int | None = None,
    ) -> None:
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be in (0, 1), got {alpha}")
        if population is not None and population < 1:
            raise ValueError(f"population must be at least 1, got {population}")
        self.alpha, self.population, self.horizon = alpha, population, horizon
        self.m = np.linspace(0.0, 1.0, grid + 1)
        self.step = 1.0 / grid
        self.t = 0
        shape = (sequences, self.m.size)
        self.log_up = np.zeros(shape)
        self.log_down = np.zeros(shape)
        self.excluded = np.zeros(shape, dtype=bool)
        self.total = np.zeros(sequences)
        self.mean_hat = np.full(sequences, 0.5)
        self.squares = np.full(sequences, 0.25)
        self._threshold = math.log(1.0 / alpha)

    def _bet(self) -> NDArray[np.float64]:
        """The predictable plug-in bet of step ``t`` (before truncation), per sequence."""
        t = self.t
        variance = self.squares / t  # (1/4 + sum (x_i - mean_hat_{i-1})^2) / t
        scale = self.horizon if self.horizon else t * math.log(1 + t)
        return np.sqrt(2 * math.log(2 / self.alpha) / (variance * scale))

    def update(self, x: ArrayLike) -> None:
        """Add one outcome per sequence (each in [0, 1])."""
        values = np.asarray(x, dtype=float).reshape(-1)
        if values.size != self.total.size:
            raise ValueError(f"need {self.total.size} outcomes, got {values.size}")
        if np.any(values < 0) or np.any(values > 1) or np.any(np.isnan(values)):
            raise ValueError("outcomes must lie in [0, 1]")
        n = self.population
        if n is not None and self.t >= n:
            raise ValueError(f"all {n} cases of the population have been seen")
        self.t += 1
        bet = self._bet()[:, None]
        if n is None:
            null = np.broadcast_to(self.m, self.log_up.shape)
        else:
            null = (n * self.m[None, :] - self.total[:, None]) / (n - self.t + 1)
        impossible = (null < -1e-9) | (null > 1 + 1e-9)  # float noise is no evidence
        safe = np.clip(null, 1e-12, 1 - 1e-12)
        up = np.minimum(bet, TRUNCATION / safe)
        down = np.minimum(bet, TRUNCATION / (1 - safe))
        gap = values[:, None] - safe
        with np.errstate(invalid="ignore", divide="ignore"):
            self.log_up += np.log1p(up * gap)
            self.log_down += np.log1p(-down * gap)
        capital = np.maximum(self.log_up, self.log_down) - math.log(2)
        self.excluded |= impossible | (capital >= self._threshold) | np.isnan(capital)
        self.squares += (values - self.mean_hat) ** 2
        self.total += values
        self.mean_hat = (0.5 + self.total) / (self.t + 1)

    def bounds(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(lower, upper) per sequence: the running intersection, widened by one grid step,
        and for a finite population never beyond what the unseen cases could still make."""
        kept = ~self.excluded
        anything = kept.any(axis=1)
        first = np.argmax(kept, axis=1)
        last = self.m.size - 1 - np.argmax(kept[:, ::-1], axis=1)
        lower = np.where(anything, self.m[first] - self.step, self.mean())
        upper = np.where(anything, self.m[last] + self.step, self.mean())
        if self.population is not None:
            n, t = self.population, self.t
            lower = np.maximum(lower, self.total / n)
            upper = np.minimum(upper, (self.total + n - t) / n)
        upper = np.maximum(upper, lower)  # an empty intersection (an alpha event) is a point
        return np.clip(lower, 0.0, 1.0), np.clip(upper, 0.0, 1.0)

    def mean(self) -> NDArray[np.float64]:
        """The running sample mean per sequence (0.5 before any outcome)."""
        return self.total / self.t if self.t else np.full(self.total.size, 0.5)


def betting_cs(
    x: ArrayLike,
    alpha: float = 0.05,
    *,
    population: int | None = None,
    grid: int = GRID,
    horizon: int | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The confidence sequence of one series: ``(lower[t], upper[t])`` after each outcome."""
    values = np.asarray(x, dtype=float).reshape(-1)
    cs = BettingCS(alpha, population=population, grid=grid, horizon=horizon)
    lower, upper = np.empty(values.size), np.empty(values.size)
    for t, value in enumerate(values):
        cs.update([value])
        low, high = cs.bounds()
        lower[t], upper[t] = low[0], high[0]
    return lower, upper

"""95% intervals from bootstrap rounds, corrected for few resampled units (queries).

A plain percentile interval of a bootstrap over ``n`` queries is too narrow when ``n`` is
small: the bootstrap spread underestimates the sampling spread by ``sqrt((n - 1) / n)``, and
normal-like tails stand in for Student's. In simulated arenas with query effects and ties
(``benchmarks/ratings_coverage.py``) the 95% percentile interval of a rating covers 89% of
the time with 8 queries and 90% with 10, and the compare verdict calls an equal candidate
"better" 4.9% of the time at 8 queries (nominal 2.5%). Each bound here is the wider of two
small-sample corrections, both read off the rounds already drawn:

- the **expanded percentile** bound (Hesterberg, 2015): the bootstrap distribution read at
  the widened level ``alpha' = Phi(-sqrt(n / (n - 1)) * t(n - 1, 0.975))`` (0.57% / 99.43%
  at 8 queries, 1.9% / 98.1% at 30, 2.5% / 97.5% as ``n`` grows), which keeps the
  distribution's asymmetry;
- the **bootstrap-t** bound ``point -/+ t(n - 1, 0.975) * sqrt(n / (n - 1)) * SD(rounds)``,
  which guards against a lumpy bootstrap distribution when a few discrete queries decide it.

Chosen by simulation over the percentile interval, BCa, the Bayesian bootstrap and either
correction alone: a rating's interval covers 96% at 5-30 queries and 95.7% at 100 (the
expanded percentile alone: 91.6% at 5, 94% at 8-10; the bootstrap-t alone: 96%), and the
false "better" rate at 8 queries is about 2.3% (expanded percentile alone 2.6-2.8%,
bootstrap-t alone 3.1%). With many queries both corrections vanish into the percentile
interval.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import ndtr, stdtrit

from arena.ratings._battle_arrays import FloatArray

LEVEL = 0.95


def t_quantile(n_units: int, level: float = LEVEL) -> float:
    """``t(n - 1, (1 + level) / 2) * sqrt(n / (n - 1))``: the widened two-sided quantile."""
    tail = (1.0 - level) / 2.0
    return math.sqrt(n_units / (n_units - 1.0)) * float(stdtrit(n_units - 1, 1.0 - tail))


def interval_levels(n_units: int, level: float = LEVEL) -> tuple[float, float]:
    """Percentile levels (in %) of the expanded percentile interval for ``n_units`` units.

    With fewer than two units the bootstrap has no spread to widen: the whole range.
    """
    if n_units < 2:
        return 0.0, 100.0
    low = 100.0 * float(ndtr(-t_quantile(n_units, level)))
    return low, 100.0 - low


def bootstrap_interval(
    samples: ArrayLike,
    n_units: int,
    *,
    point: ArrayLike | None = None,
    axis: int = 0,
    level: float = LEVEL,
    limits: tuple[float, float] = (-math.inf, math.inf),
) -> tuple[FloatArray, FloatArray]:
    """(low, high) bounds of bootstrap ``samples`` along ``axis`` (see the module doc).

    ``n_units`` is the number of units (queries) each round resampled; ``point`` the
    estimate on all data (without it, only the expanded percentile bounds). Bounds are
    clipped to ``limits`` (a win rate's [0, 1]). NaN rounds are ignored.
    """
    values = np.asarray(samples, dtype=np.float64)
    nan = bool(np.isnan(values).any())
    pick = np.nanpercentile if nan else np.percentile
    bounds = pick(values, list(interval_levels(n_units, level)), axis=axis)
    low, high = np.asarray(bounds[0], dtype=np.float64), np.asarray(bounds[1], dtype=np.float64)
    if point is not None and n_units >= 2 and values.shape[axis] >= 2:
        spread = (np.nanstd if nan else np.std)(values, axis=axis, ddof=1)
        half = t_quantile(n_units, level) * np.nan_to_num(spread)
        centre = np.asarray(point, dtype=np.float64)
        low, high = np.minimum(low, centre - half), np.maximum(high, centre + half)
    return (
        np.asarray(np.clip(low, *limits), dtype=np.float64),
        np.asarray(np.clip(high, *limits), dtype=np.float64),
    )

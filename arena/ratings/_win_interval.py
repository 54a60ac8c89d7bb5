"""A head-to-head win rate with a 95% interval that a handful of cases cannot make degenerate.

The win rate (tie = half a win) is a ratio over queries: each query's summed battle scores
over its summed battle weights. A query bootstrap of it has zero width whenever every query
scores the same (six ties give ``0.50 [0.50, 0.50]``) and covers badly when a few queries
are lopsided. This interval is bootstrap-free, an Agresti-Coull interval generalised from
wins and losses to per-query scores in [0, 1]:

- **pseudo-queries**: ``z^2 / 2`` queries won and ``z^2 / 2`` lost (``z = 1.96``, each of
  the mean query weight) join the data, pulling the estimate towards 0.5 and giving it a
  spread even when every real query scored alike (the continuity floor);
- **half-width** ``t * SE``: the cluster (query) standard error of the ratio over the
  augmented ``n + z^2`` queries, with Student's ``t`` on ``n + z^2 - 1`` degrees of freedom.

With decisive battles only and one battle per query it is the Agresti-Coull interval read
with ``t`` instead of ``z``. In simulation (``tests/ratings/test_win_interval.py``: 4 to 30
queries, win / tie / loss mixes from even to 95% wins) it covers the true win rate 94-100%
of the time (mean 98.6%; a query bootstrap covers as little as 20% there and has zero width on all
ties) and calls an equal candidate "better" (low bound above 0.5) at most 3.1% of the time
(nominal 2.5%; binomial lattices make it jump with the number of queries).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import ndtri, stdtrit

from arena.ratings._battle_arrays import Battles, FloatArray
from arena.ratings._bootstrap import WinRate, head_to_head

LEVEL = 0.95


def score_interval(
    scores: ArrayLike, weights: ArrayLike, level: float = LEVEL
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(win rate, low, high) from per-query summed ``scores`` and ``weights`` (last axis).

    ``scores[..., q]`` is query ``q``'s total score (a win 1, a tie 0.5, times the battle
    weight), ``weights[..., q]`` its total battle weight; queries of weight 0 are absent.
    Leading axes are independent samples. NaN where there is no weight.
    """
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    n = (w > 0).sum(axis=-1)
    total = w.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        point = s.sum(axis=-1) / total
        z = float(ndtri(0.5 + level / 2.0))
        pseudo = z * z / 2.0  # pseudo-queries on each side
        unit = total / n
        total_w = total + 2.0 * pseudo * unit
        rate = (s.sum(axis=-1) + pseudo * unit) / total_w
        residuals = ((s - rate[..., None] * w) ** 2).sum(axis=-1)
        residuals += pseudo * (unit * (1.0 - rate)) ** 2 + pseudo * (unit * rate) ** 2
        half = stdtrit(n + z * z - 1.0, 0.5 + level / 2.0) * np.sqrt(residuals) / total_w
    return point, np.clip(rate - half, 0.0, 1.0), np.clip(rate + half, 0.0, 1.0)


def win_rate_interval(battles: Battles, model: str, opponent: str, level: float = LEVEL) -> WinRate:
    """``model``'s weighted win rate against ``opponent`` with the interval of the module doc.

    Only battles between the two count (either seat); the unit is the query. All values
    are NaN when the two never met.
    """
    n, score_q, weight_q = head_to_head(battles, model, opponent)
    if n == 0:
        nan = float("nan")
        return WinRate(model, opponent, nan, nan, nan, 0)
    point, low, high = score_interval(score_q, weight_q, level)
    return WinRate(model, opponent, float(point), float(low), float(high), n)

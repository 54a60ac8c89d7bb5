"""Futility: stop once a decision by the budget has become unlikely.

Predictive power (Spiegelhalter, Freedman & Blackburn 1986) on the known-horizon boundary of
:mod:`arena.sequential._spending`: the chance, averaged over what the true mean may still be
given the outcomes so far (``N(mean_t, sigma_t^2 / t)``, a flat prior; Gauss-Hermite
quadrature), that the rest of the budget brings a decision. On that boundary each decision
is a constant level of a random walk (``S_u(m) = sum (x_i - m)`` against
``c sigma sqrt(N)``), so with the rest of the walk Brownian:

- **better** / **worse** / **non-inferior** (the gate's question): the chance the walk crosses
  its level in the ``N - t`` cases left, ``Phi((d r - g) / (s sqrt r)) + exp(2 d g / s^2)
  Phi((-g - d r) / (s sqrt r))`` for a gap ``g``, drift ``d`` per case and spread ``s``;
- **within the margin** (three-way question): the chance the mean at the budget lies inside
  ``0.5 -+ (margin - c sigma / sqrt N)`` (the boundary is widest there).

Their sum (an upper bound of the chance of any of them) below the threshold stops the run as
"undecided: more cases would not settle it". A futility stop only ever ends a run
*undecided*, so it adds no false decision: it costs power only, where a decision was unlikely.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy.special import log_ndtr, ndtr

from arena.sequential._spending import SpendingCS, critical

#: Quadrature nodes (probabilists' Gauss-Hermite) over the true mean.
NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(16)
WEIGHTS = WEIGHTS / WEIGHTS.sum()


def _crossing(gap: NDArray[np.float64], drift: NDArray[np.float64], spread: NDArray[np.float64],
              left: int) -> NDArray[np.float64]:  # fmt: skip
    """Chance a Brownian walk with ``drift`` and ``spread`` per case rises by ``gap`` (>= 0)
    within ``left`` cases."""
    gap = np.maximum(gap, 0.0)
    root = spread * math.sqrt(left)
    direct = ndtr((drift * left - gap) / root)
    with np.errstate(over="ignore"):
        mirror = np.exp(2 * drift * gap / spread**2 + log_ndtr((-gap - drift * left) / root))
    return np.asarray(np.clip(direct + np.nan_to_num(mirror, posinf=1.0), 0.0, 1.0))


def decision_chance(
    cs: SpendingCS, margin: float, *, non_inferiority: bool = False
) -> NDArray[np.float64]:
    """Predictive chance per sequence that a decision is reached by the budget (module
    docstring); 1 before any outcome and 0 once the budget is spent."""
    t, budget = cs.t, cs.budget
    if t == 0:
        return np.ones(cs.total.size)
    left = budget - t
    if left <= 0:
        return np.zeros(cs.total.size)
    sigma = cs.sigma()[:, None]
    mean = cs.mean()[:, None]
    truth = mean + NODES[None, :] * sigma / math.sqrt(t)  # (sequences, nodes)
    level = critical(cs.alpha) * sigma * math.sqrt(budget)
    total = cs.total[:, None]
    floor = 0.5 - margin
    up_floor = _crossing(level - (total - floor * t), truth - floor, sigma, left)
    if non_inferiority:
        chance = up_floor  # lower >= 0.5 - margin is the whole question (better included)
    else:
        better = _crossing(level - (total - 0.5 * t), truth - 0.5, sigma, left)
        worse = _crossing(level + (total - floor * t), floor - truth, sigma, left)
        chance = better + worse + _within(cs, margin, truth, sigma)
    return np.asarray(np.minimum(chance, 1.0) @ WEIGHTS, dtype=float)


def _within(
    cs: SpendingCS, margin: float, truth: NDArray[np.float64], sigma: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Chance the mean at the budget lies where the interval is within the margin."""
    budget, t = cs.budget, cs.t
    room = margin - critical(cs.alpha) * sigma / math.sqrt(budget)
    final_mean = (cs.total[:, None] + truth * (budget - t)) / budget
    spread = sigma * math.sqrt(budget - t) / budget
    inside = ndtr((0.5 + room - final_mean) / spread) - ndtr((0.5 - room - final_mean) / spread)
    return np.asarray(np.where(room > 0, np.maximum(inside, 0.0), 0.0))


def futile(
    cs: SpendingCS,
    margin: float,
    threshold: float,
    *,
    non_inferiority: bool = False,
    min_cases: int = 10,
) -> NDArray[np.bool_]:
    """True per sequence once the chance of a decision by the budget is under ``threshold``
    (never before ``min_cases`` outcomes, while the spread estimate is still rough)."""
    if threshold <= 0 or cs.t < min_cases:
        return np.zeros(cs.total.size, dtype=bool)
    return decision_chance(cs, margin, non_inferiority=non_inferiority) < threshold

"""Per-model battle counts, CI-aware ranks, and the win-rate / prediction / count matrices."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from arena.ratings._battle_arrays import Battles, FloatArray, IntArray
from arena.ratings._bradley_terry import BASE, SCALE


def ci_aware_rank(ci_low: FloatArray, ci_high: FloatArray) -> IntArray:
    """Rank = 1 + number of models whose lower bound is strictly above this upper bound."""
    low = np.asarray(ci_low, dtype=np.float64)
    high = np.asarray(ci_high, dtype=np.float64)
    return np.asarray(1 + (low[None, :] > high[:, None]).sum(axis=1), dtype=np.int64)


@dataclass(frozen=True, eq=False)
class ModelStats:
    """Per-model battle counts (unweighted) in ``battles.models`` order."""

    wins: IntArray
    losses: IntArray
    ties: IntArray
    battles: IntArray


def model_stats(battles: Battles) -> ModelStats:
    """Wins, losses, ties (score exactly 0.5) and battles of every model, either seat."""
    m = battles.n_models
    a, b, out = battles.model_a, battles.model_b, battles.outcome

    def count(idx: IntArray, mask: NDArray[np.bool_]) -> IntArray:
        return np.bincount(idx[mask], minlength=m).astype(np.int64)

    a_wins, b_wins, tie = out > 0.5, out < 0.5, out == 0.5
    return ModelStats(
        wins=count(a, a_wins) + count(b, b_wins),
        losses=count(a, b_wins) + count(b, a_wins),
        ties=count(a, tie) + count(b, tie),
        battles=(np.bincount(a, minlength=m) + np.bincount(b, minlength=m)).astype(np.int64),
    )


def _pair_sums(battles: Battles, values: FloatArray) -> FloatArray:
    """(models x models) sums of ``values`` over battles with A in the row, B in the column."""
    m = battles.n_models
    flat = battles.model_a * m + battles.model_b
    sums = np.bincount(flat, weights=values, minlength=m * m).astype(np.float64)
    return sums.reshape(m, m)


def battle_count_matrix(battles: Battles) -> IntArray:
    """Symmetric matrix of the number of battles between each pair (either seat)."""
    counts = _pair_sums(battles, np.ones(len(battles)))
    return np.rint(counts + counts.T).astype(np.int64)


def win_rate_matrix(battles: Battles) -> FloatArray:
    """Observed weighted win rate of the row model against the column model (tie = half).

    NaN where the two never met (and on the diagonal).
    """
    w = battles.weight
    score = _pair_sums(battles, w * battles.outcome)
    score = score + _pair_sums(battles, w * (1.0 - battles.outcome)).T
    total = _pair_sums(battles, w)
    total = total + total.T
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(total > 0.0, score / total, np.nan)
    np.fill_diagonal(rate, np.nan)
    return np.asarray(rate, dtype=np.float64)


def predicted_win_matrix(
    ratings: FloatArray, *, scale: float = SCALE, base: float = BASE
) -> FloatArray:
    """Win probability of the row model over the column model implied by ratings.

    ``1 / (1 + base ** ((r_col - r_row) / scale))``; NaN on the diagonal.
    """
    r = np.asarray(ratings, dtype=np.float64)
    prob = 1.0 / (1.0 + np.power(base, (r[None, :] - r[:, None]) / scale))
    np.fill_diagonal(prob, np.nan)
    return np.asarray(prob, dtype=np.float64)


def rank_models(rating: FloatArray, ci_low: FloatArray, ci_high: FloatArray) -> IntArray:
    """CI-aware ranks (:func:`ci_aware_rank`), or, when any interval is missing (NaN),
    1 + the number of models rated strictly higher."""
    low, high = np.asarray(ci_low), np.asarray(ci_high)
    if np.all(np.isfinite(low)) and np.all(np.isfinite(high)):
        return ci_aware_rank(low, high)
    r = np.asarray(rating, dtype=np.float64)
    return np.asarray(1 + (r[None, :] > r[:, None]).sum(axis=1), dtype=np.int64)

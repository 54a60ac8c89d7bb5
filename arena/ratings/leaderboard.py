"""Leaderboard helpers: CI-aware ranks, win-rate / prediction / count matrices, the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from arena.ratings.battles import Battles, FloatArray, IntArray
from arena.ratings.bootstrap import DEFAULT_ROUNDS, BootstrapResult, bootstrap_bradley_terry
from arena.ratings.bradley_terry import BASE, DEFAULT_REG, SCALE
from arena.ratings.elo import elo_median_over_orderings
from arena.ratings.style import bootstrap_style_controlled, fit_style_controlled


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


@dataclass(frozen=True, eq=False)
class Leaderboard:
    """Models sorted by rating (descending); every array and matrix uses that order.

    ``rating`` / ``ci_low`` / ``ci_high`` are Bradley-Terry Elo points with 95% query-
    bootstrap intervals (length-controlled when ``style_coef`` is set); ``elo`` is the
    order-independent online Elo (median over shuffles, NaN when skipped).
    """

    models: tuple[str, ...]
    rating: FloatArray
    ci_low: FloatArray
    ci_high: FloatArray
    elo: FloatArray
    rank: IntArray
    wins: IntArray
    losses: IntArray
    ties: IntArray
    battles: IntArray
    win_rate: FloatArray
    predicted_win: FloatArray
    battle_counts: IntArray
    style_coef: float | None = None

    def records(self) -> list[dict[str, str | float | int]]:
        """One plain dict per model, in leaderboard order."""
        return [
            {
                "model": name,
                "rating": float(self.rating[i]),
                "ci_low": float(self.ci_low[i]),
                "ci_high": float(self.ci_high[i]),
                "elo": float(self.elo[i]),
                "rank": int(self.rank[i]),
                "wins": int(self.wins[i]),
                "losses": int(self.losses[i]),
                "ties": int(self.ties[i]),
                "battles": int(self.battles[i]),
            }
            for i, name in enumerate(self.models)
        ]


def leaderboard(
    battles: Battles,
    bootstrap_rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    anchor: str | None = None,
    style: Literal["length"] | None = None,
    *,
    elo_rounds: int = 100,
    reg: float = DEFAULT_REG,
) -> Leaderboard:
    """Full leaderboard: BT ratings with query-bootstrap CIs, CI-aware ranks, Elo, stats.

    ``style="length"`` reports length-controlled ratings (needs ``len_a``/``len_b``).
    ``elo_rounds=0`` skips the order-independent Elo (reported as NaN).
    """
    if style not in (None, "length"):
        raise ValueError(f"unknown style {style!r}; expected None or 'length'")
    style_coef: float | None = None
    boot: BootstrapResult
    if style == "length":
        style_coef = fit_style_controlled(battles, anchor=anchor, reg=reg).coef
        boot = bootstrap_style_controlled(
            battles, rounds=bootstrap_rounds, seed=seed, anchor=anchor, reg=reg
        )
    else:
        boot = bootstrap_bradley_terry(
            battles, rounds=bootstrap_rounds, seed=seed, anchor=anchor, reg=reg
        )
    if elo_rounds > 0:
        elo = elo_median_over_orderings(battles, rounds=elo_rounds, seed=seed)
    else:
        elo = np.full(battles.n_models, np.nan)
    stats = model_stats(battles)
    order = np.lexsort((np.arange(battles.n_models), -boot.rating))
    grid = np.ix_(order, order)
    return Leaderboard(
        models=tuple(battles.models[i] for i in order),
        rating=boot.rating[order],
        ci_low=boot.ci_low[order],
        ci_high=boot.ci_high[order],
        elo=elo[order],
        rank=ci_aware_rank(boot.ci_low, boot.ci_high)[order],
        wins=stats.wins[order],
        losses=stats.losses[order],
        ties=stats.ties[order],
        battles=stats.battles[order],
        win_rate=win_rate_matrix(battles)[grid],
        predicted_win=predicted_win_matrix(boot.rating)[grid],
        battle_counts=battle_count_matrix(battles)[grid],
        style_coef=style_coef,
    )

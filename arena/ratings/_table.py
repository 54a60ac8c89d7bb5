"""The rating table: one rating method's ratings beside Elo, ranks, counts and matrices."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arena.ratings._battle_arrays import Battles, FloatArray, IntArray
from arena.ratings._elo import elo_median_fit, elo_median_over_orderings
from arena.ratings._fit import Effect
from arena.ratings._matrices import (
    battle_count_matrix,
    model_stats,
    predicted_win_matrix,
    rank_models,
    win_rate_matrix,
)
from arena.ratings._methods import elo_median_rounds, rate_elo_median
from arena.ratings._options import RatingOptions
from arena.ratings._registry import RATING_METHODS


@dataclass(frozen=True, eq=False)
class RatingTable:
    """Every model's rating, sorted by rating (descending); all arrays use that order.

    ``rating`` / ``ci_low`` / ``ci_high`` come from ``method`` (Elo points, 95% query-
    bootstrap intervals, NaN for a method without intervals; style-controlled for
    ``style-bt``, whose fitted covariates are in ``effects``); ``elo`` is the
    order-independent online Elo (median over shuffles, NaN when skipped); ``rank`` is
    CI-aware (plain rating order without intervals).
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
    method: str = "bt"
    effects: tuple[Effect, ...] = ()

    def records(self) -> list[dict[str, str | float | int]]:
        """One plain dict per model, in rating order."""
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


def rating_table(battles: Battles, options: RatingOptions | None = None) -> RatingTable:
    """Rate ``battles`` with ``options.method`` and tabulate: ranks, Elo, stats, matrices.

    ``options`` defaults to ``RatingOptions()`` (Bradley-Terry, 1000 bootstrap rounds, the
    default prior). The order-independent Elo column follows
    :meth:`RatingOptions.elo_column_rounds` (``elo_rounds=0`` skips it); with the
    ``elo-median`` method it is the method's own medians, computed once.
    """
    opts = options if options is not None else RatingOptions()
    elo_rounds = opts.elo_column_rounds(len(battles))
    method = RATING_METHODS.lookup(opts.method_name)
    if method.rate is rate_elo_median:  # the method's medians are the Elo column: run once
        elo = elo_median_over_orderings(battles, rounds=elo_median_rounds(opts), seed=opts.seed)
        fit = elo_median_fit(battles, elo, opts.anchor)
    else:
        fit = method.rate(battles, opts)
        if elo_rounds > 0:
            elo = elo_median_over_orderings(battles, rounds=elo_rounds, seed=opts.seed)
        else:
            elo = np.full(battles.n_models, np.nan)
    stats = model_stats(battles)
    order = np.lexsort((np.arange(battles.n_models), -fit.rating))
    grid = np.ix_(order, order)
    return RatingTable(
        models=tuple(battles.models[i] for i in order),
        rating=fit.rating[order],
        ci_low=fit.ci_low[order],
        ci_high=fit.ci_high[order],
        elo=elo[order],
        rank=rank_models(fit.rating, fit.ci_low, fit.ci_high)[order],
        wins=stats.wins[order],
        losses=stats.losses[order],
        ties=stats.ties[order],
        battles=stats.battles[order],
        win_rate=win_rate_matrix(battles)[grid],
        predicted_win=predicted_win_matrix(fit.rating)[grid],
        battle_counts=battle_count_matrix(battles)[grid],
        method=opts.method_name,
        effects=fit.effects,
    )

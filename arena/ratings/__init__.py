"""Ratings from pairwise battles: Bradley-Terry MLE, online and order-independent Elo,
query-bootstrap confidence intervals (expanded percentile, honest in small arenas; memory
bounded by a byte budget), style control, rating tables.

Pure numpy/scipy over arrays of battles (see :class:`Battles`). Every knob of a rating is
one :class:`RatingOptions` record; rating methods are looked up by name in a registry
(:data:`RATING_METHODS`).

Public names load lazily, so reading the rating-method registry (``arena --help``) does
not load numpy or scipy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names, for type checkers
    from arena.ratings._battle_arrays import Battles
    from arena.ratings._bootstrap import (
        DEFAULT_ROUNDS,
        WinRate,
        bootstrap_bradley_terry,
        bootstrap_win_rate,
    )
    from arena.ratings._bradley_terry import (
        BASE,
        DEFAULT_REG,
        INITIAL,
        SCALE,
        bradley_terry,
        fit_log_strengths,
        log_strength_to_elo,
        newton_fit_batch,
    )
    from arena.ratings._elo import (
        DEFAULT_ELO_ROUNDS,
        ELO_AUTO_MAX_BATTLES,
        K_FACTOR,
        elo_median_over_orderings,
        online_elo,
    )
    from arena.ratings._fit import Effect, RatingFit
    from arena.ratings._intervals import bootstrap_interval, interval_levels
    from arena.ratings._matrices import (
        ModelStats,
        battle_count_matrix,
        ci_aware_rank,
        model_stats,
        predicted_win_matrix,
        rank_models,
        win_rate_matrix,
    )
    from arena.ratings._methods import (
        RATING_METHODS,
        RatingMethod,
        rate_bradley_terry,
        rate_elo_median,
        rate_online_elo,
        rate_style_controlled,
        rating_methods,
    )
    from arena.ratings._options import RatingOptionError, RatingOptions, expand_style
    from arena.ratings._pair_counts import PairCounts, aggregate_pairs
    from arena.ratings._resampling import (
        RESAMPLE_BUDGET,
        UnitTypes,
        query_multiplicities,
        type_multiplicities,
    )
    from arena.ratings._sparse_newton import sparse_newton_fit_batch
    from arena.ratings._style import (
        bootstrap_style_controlled,
        fit_style_controlled,
    )
    from arena.ratings._style_features import (
        LENGTH,
        MARKDOWN_COUNTS,
        SEAT,
        count_ratio,
        seat_identifiable,
        style_matrix,
        style_problem,
    )
    from arena.ratings._table import RatingTable, rating_table
    from arena.ratings._win_interval import score_interval, win_rate_interval

_EXPORTS = {
    "Battles": "arena.ratings._battle_arrays",
    "DEFAULT_ROUNDS": "arena.ratings._bootstrap",
    "WinRate": "arena.ratings._bootstrap",
    "bootstrap_bradley_terry": "arena.ratings._bootstrap",
    "bootstrap_win_rate": "arena.ratings._bootstrap",
    "BASE": "arena.ratings._bradley_terry",
    "DEFAULT_REG": "arena.ratings._bradley_terry",
    "INITIAL": "arena.ratings._bradley_terry",
    "SCALE": "arena.ratings._bradley_terry",
    "bradley_terry": "arena.ratings._bradley_terry",
    "fit_log_strengths": "arena.ratings._bradley_terry",
    "log_strength_to_elo": "arena.ratings._bradley_terry",
    "newton_fit_batch": "arena.ratings._bradley_terry",
    "DEFAULT_ELO_ROUNDS": "arena.ratings._elo",
    "ELO_AUTO_MAX_BATTLES": "arena.ratings._elo",
    "K_FACTOR": "arena.ratings._elo",
    "elo_median_over_orderings": "arena.ratings._elo",
    "online_elo": "arena.ratings._elo",
    "Effect": "arena.ratings._fit",
    "RatingFit": "arena.ratings._fit",
    "bootstrap_interval": "arena.ratings._intervals",
    "interval_levels": "arena.ratings._intervals",
    "ModelStats": "arena.ratings._matrices",
    "battle_count_matrix": "arena.ratings._matrices",
    "ci_aware_rank": "arena.ratings._matrices",
    "model_stats": "arena.ratings._matrices",
    "predicted_win_matrix": "arena.ratings._matrices",
    "rank_models": "arena.ratings._matrices",
    "win_rate_matrix": "arena.ratings._matrices",
    "RATING_METHODS": "arena.ratings._methods",
    "RatingMethod": "arena.ratings._methods",
    "rate_bradley_terry": "arena.ratings._methods",
    "rate_elo_median": "arena.ratings._methods",
    "rate_online_elo": "arena.ratings._methods",
    "rate_style_controlled": "arena.ratings._methods",
    "rating_methods": "arena.ratings._methods",
    "RatingOptionError": "arena.ratings._options",
    "RatingOptions": "arena.ratings._options",
    "expand_style": "arena.ratings._options",
    "PairCounts": "arena.ratings._pair_counts",
    "aggregate_pairs": "arena.ratings._pair_counts",
    "RESAMPLE_BUDGET": "arena.ratings._resampling",
    "UnitTypes": "arena.ratings._resampling",
    "query_multiplicities": "arena.ratings._resampling",
    "type_multiplicities": "arena.ratings._resampling",
    "sparse_newton_fit_batch": "arena.ratings._sparse_newton",
    "bootstrap_style_controlled": "arena.ratings._style",
    "fit_style_controlled": "arena.ratings._style",
    "LENGTH": "arena.ratings._style_features",
    "MARKDOWN_COUNTS": "arena.ratings._style_features",
    "SEAT": "arena.ratings._style_features",
    "count_ratio": "arena.ratings._style_features",
    "seat_identifiable": "arena.ratings._style_features",
    "style_matrix": "arena.ratings._style_features",
    "style_problem": "arena.ratings._style_features",
    "RatingTable": "arena.ratings._table",
    "rating_table": "arena.ratings._table",
    "score_interval": "arena.ratings._win_interval",
    "win_rate_interval": "arena.ratings._win_interval",
}

__all__ = [
    "BASE",
    "DEFAULT_ELO_ROUNDS",
    "DEFAULT_REG",
    "DEFAULT_ROUNDS",
    "ELO_AUTO_MAX_BATTLES",
    "INITIAL",
    "K_FACTOR",
    "LENGTH",
    "MARKDOWN_COUNTS",
    "RATING_METHODS",
    "RESAMPLE_BUDGET",
    "SCALE",
    "SEAT",
    "Battles",
    "Effect",
    "ModelStats",
    "PairCounts",
    "RatingFit",
    "RatingMethod",
    "RatingOptionError",
    "RatingOptions",
    "RatingTable",
    "UnitTypes",
    "WinRate",
    "aggregate_pairs",
    "battle_count_matrix",
    "bootstrap_bradley_terry",
    "bootstrap_interval",
    "bootstrap_style_controlled",
    "bootstrap_win_rate",
    "bradley_terry",
    "ci_aware_rank",
    "count_ratio",
    "elo_median_over_orderings",
    "expand_style",
    "fit_log_strengths",
    "fit_style_controlled",
    "interval_levels",
    "log_strength_to_elo",
    "model_stats",
    "newton_fit_batch",
    "online_elo",
    "predicted_win_matrix",
    "query_multiplicities",
    "rank_models",
    "rate_bradley_terry",
    "rate_elo_median",
    "rate_online_elo",
    "rate_style_controlled",
    "rating_methods",
    "rating_table",
    "score_interval",
    "seat_identifiable",
    "sparse_newton_fit_batch",
    "style_matrix",
    "style_problem",
    "type_multiplicities",
    "win_rate_interval",
    "win_rate_matrix",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.ratings' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

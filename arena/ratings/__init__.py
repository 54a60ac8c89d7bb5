"""Ratings from pairwise battles: Bradley-Terry MLE, online and order-independent Elo,
query-bootstrap confidence intervals (expanded percentile, honest in small arenas; memory
bounded by a byte budget), style control, rating tables.

Pure numpy/scipy over arrays of battles (see :class:`Battles`). Every knob of a rating is
one :class:`RatingOptions` record; rating methods are looked up by name in a registry
(:data:`RATING_METHODS`).
"""

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

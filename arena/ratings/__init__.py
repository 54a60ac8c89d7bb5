"""Ratings from pairwise battles: online and order-independent Elo, Bradley-Terry MLE,
query-bootstrap confidence intervals, style (length) control and leaderboard helpers.

Pure numpy/scipy over arrays of battles; see :class:`Battles`.
"""

from arena.ratings.battles import WINNER_OUTCOMES, Battles, PairCounts, aggregate_pairs
from arena.ratings.bootstrap import (
    BootstrapResult,
    WinRate,
    bootstrap_bradley_terry,
    bootstrap_win_rate,
    query_multiplicities,
)
from arena.ratings.bradley_terry import (
    BASE,
    DEFAULT_REG,
    INITIAL,
    SCALE,
    bradley_terry,
    fit_log_strengths,
    log_strength_to_elo,
    newton_fit_batch,
)
from arena.ratings.elo import K_FACTOR, elo_median_over_orderings, online_elo
from arena.ratings.leaderboard import (
    Leaderboard,
    ModelStats,
    battle_count_matrix,
    ci_aware_rank,
    leaderboard,
    model_stats,
    predicted_win_matrix,
    win_rate_matrix,
)
from arena.ratings.style import (
    StyleFit,
    bootstrap_style_controlled,
    fit_style_controlled,
    length_feature,
)

__all__ = [
    "BASE",
    "DEFAULT_REG",
    "INITIAL",
    "K_FACTOR",
    "SCALE",
    "WINNER_OUTCOMES",
    "Battles",
    "BootstrapResult",
    "Leaderboard",
    "ModelStats",
    "PairCounts",
    "StyleFit",
    "WinRate",
    "aggregate_pairs",
    "battle_count_matrix",
    "bootstrap_bradley_terry",
    "bootstrap_style_controlled",
    "bootstrap_win_rate",
    "bradley_terry",
    "ci_aware_rank",
    "elo_median_over_orderings",
    "fit_log_strengths",
    "fit_style_controlled",
    "leaderboard",
    "length_feature",
    "log_strength_to_elo",
    "model_stats",
    "newton_fit_batch",
    "online_elo",
    "predicted_win_matrix",
    "query_multiplicities",
    "win_rate_matrix",
]

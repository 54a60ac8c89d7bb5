"""The leaderboard: a run's battles as rating inputs (which battles count, style covariates,
people's votes beside the judge's) and the ratings table built from them, beside the golden
scores."""

from arena.leaderboard._board import (
    ModelRating,
    RatingFigures,
    RunLeaderboard,
    StyleEffect,
    VariantStanding,
    build_leaderboard,
    crash_counts,
    model_ratings,
    rate_battles,
    style_effects,
)
from arena.leaderboard._rating_inputs import (
    battles_to_arrays,
    rated,
    run_outputs,
    select_battles,
    undecided,
)
from arena.leaderboard._reading import (
    best_text,
    best_variant,
    board_notes,
    description_notes,
    ranked,
    shared_rank_notes,
    unranked_notes,
)

__all__ = [
    "ModelRating",
    "RatingFigures",
    "RunLeaderboard",
    "StyleEffect",
    "VariantStanding",
    "battles_to_arrays",
    "best_text",
    "best_variant",
    "board_notes",
    "build_leaderboard",
    "crash_counts",
    "description_notes",
    "model_ratings",
    "ranked",
    "rate_battles",
    "rated",
    "run_outputs",
    "select_battles",
    "shared_rank_notes",
    "style_effects",
    "undecided",
    "unranked_notes",
]

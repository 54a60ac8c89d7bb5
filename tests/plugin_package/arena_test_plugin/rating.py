"""``wins``: each model's share of the points on the Elo scale, no intervals."""

from __future__ import annotations

import numpy as np

from arena.extend import Battles, RatingFit, RatingOptions, rating_method


@rating_method("wins", "share of the points won, Elo scale (a plugin's method)", intervals=False)
def rate_wins(battles: Battles, options: RatingOptions) -> RatingFit:
    """share of the points won (a tie is half), on the Elo scale"""
    m = battles.n_models
    w, y = battles.weight, battles.outcome
    score = np.bincount(battles.model_a, w * y, m) + np.bincount(battles.model_b, w * (1 - y), m)
    games = np.bincount(battles.model_a, w, m) + np.bincount(battles.model_b, w, m)
    share = (score + 0.5) / (games + 1.0)
    return RatingFit.point(battles.models, 1000.0 + 400.0 * np.log10(share / (1.0 - share)))

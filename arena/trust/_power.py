"""How many labelled pairs a selective judge likely needs before it gives a first verdict.

The simulation model (the one the threshold search is tested on): a verdict's score is
``s ~ Beta(theta, 1)`` and the judge agrees with the label with probability
``sigmoid(intercept + slope * s)``. :func:`fit_model` fits it to the pooled labelled verdicts:
the agreement map by :func:`platt_fit`, and the scores are drawn from the pooled scores
themselves (a text judge's scores sit on three levels, which no Beta law fits);
:func:`verdict_rate` simulates many calibrations of ``n`` pairs and returns how often the
fixed-sequence test finds a threshold; :func:`pairs_needed` is the smallest ``n`` (on a
coarse grid) at which that happens in at least half of them. An estimate, not a promise: it
is only as good as the fitted model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arena.trust._guarantee import batch_thresholds, min_given, platt_fit

#: Calibrations simulated per candidate size.
DRAWS = 400
#: The sizes tried, as multiples of the pairs there are (and at least this many more).
GROWTH = (1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
MIN_MORE = 5
#: Scores are kept off 0 for the Beta fit (ties score 0); theta is kept below THETA_CAP.
FLOOR = 1e-3
THETA_CAP = 50.0


@dataclass(frozen=True)
class ScoreModel:
    """The fitted simulation model: ``s ~ Beta(theta, 1)``, P(agree | s) =
    sigmoid(intercept + slope * s)."""

    theta: float
    intercept: float
    slope: float
    pool: tuple[float, ...] = ()
    """Scores to draw from, with replacement (empty: Beta(theta, 1))."""

    def draw(self, draws: int, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``draws`` calibration sets of ``n`` pairs: (scores, agrees), each draws x n."""
        if self.pool:
            scores = rng.choice(np.asarray(self.pool), (draws, n))
        else:
            scores = rng.beta(self.theta, 1.0, (draws, n))
        chance = 1.0 / (1.0 + np.exp(-(self.intercept + self.slope * scores)))
        return scores, rng.uniform(size=(draws, n)) < chance


def fit_model(scores: Sequence[float], agrees: Sequence[bool]) -> ScoreModel:
    """The simulation model fitted to labelled verdicts (at least one)."""
    clipped = np.clip(np.asarray(scores, dtype=np.float64), FLOOR, 1.0)
    log_sum = float(-np.log(clipped).sum())
    theta = len(clipped) / log_sum if log_sum > 0 else THETA_CAP
    intercept, slope = platt_fit(list(scores), list(agrees))
    return ScoreModel(
        theta=min(theta, THETA_CAP),
        intercept=intercept,
        slope=slope,
        pool=tuple(map(float, scores)),
    )


def verdict_rate(
    model: ScoreModel, n: int, target: float, error: float, draws: int = DRAWS, seed: int = 0
) -> float:
    """The share of simulated calibrations of ``n`` pairs that find a threshold."""
    scores, agrees = model.draw(draws, n, np.random.default_rng(seed))
    return float((batch_thresholds(scores, agrees, target, error) >= 0).mean())


def pairs_needed(
    scores: Sequence[float], agrees: Sequence[bool], target: float, error: float
) -> int | None:
    """How many labelled pairs in all would likely (in half the simulated calibrations) give a
    first verdict, fitted to these; None when even :data:`GROWTH`'s largest would not."""
    if not len(scores):
        return None
    model = fit_model(scores, agrees)
    n = len(scores)
    for growth in GROWTH:
        size = max(n + MIN_MORE, math.ceil(n * growth), min_given(target, error))
        if verdict_rate(model, size, target, error) >= 0.5:
            return size
    return None

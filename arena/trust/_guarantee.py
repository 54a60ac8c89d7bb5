"""The statistics of selective verdicts: an abstention threshold with a finite-sample guarantee.

Pure functions (numpy/scipy, no I/O). A judge gives each verdict a score in [0, 1]; it gives
the verdicts scoring at least a threshold and abstains on the rest. Given a target agreement
``target`` with people and an error level ``error``, :func:`fixed_sequence_threshold` picks
the threshold on labelled calibration verdicts so that, with probability at least
``1 - error`` over the calibration sample, the agreement of the verdicts given is at least
``target`` (Jung et al., "Trust or Escalate", ICLR 2025; Bauer's fixed-sequence testing):

- the thresholds of a grid fixed in advance (:data:`THRESHOLD_GRID`) are tested from the
  highest down; at each one, H0 "the verdicts scoring at least this disagree with people more
  than ``1 - target`` of the time" is rejected when the exact binomial p-value of the
  disagreements seen is at most ``error`` (equivalently, the one-sided Clopper-Pearson upper
  bound of the disagreement rate is at most ``1 - target``);
- testing stops at the first threshold not rejected; the lowest threshold rejected is chosen.
  Testing in a fixed order needs no multiplicity correction: the chance of rejecting any true
  H0 before the first acceptance is at most ``error``. Given how many calibration verdicts
  score above a threshold, their disagreements are binomial with the rate of the population
  above it, so the p-value is exact.
- the sequence starts deep: a threshold is tested only once at least :func:`start_depth`
  calibration verdicts score that high, ``max(min_given, n / 5)`` of ``n`` (fewer than
  :func:`min_given` could never reject: even all of them agreeing is too few; starting at a
  fifth of the pairs keeps one early miss among the few most confident verdicts from ending
  the sequence, which cost a fifth of all calibrations their every verdict). Which thresholds
  are tested depends on the scores only, never on the labels, so the fixed-sequence argument
  holds unchanged from any start: one sequence, the whole error level, no split. If the first
  tested threshold is not rejected, there is no threshold: the judge abstains on everything.

:func:`platt_fit` maps a score to a calibrated probability that the verdict agrees with
people (Platt scaling, two parameters, monotone): with tens of labelled pairs an isotonic fit
would be a step function of a few steps, and the threshold itself is chosen on the raw score,
so the guarantee never depends on the fit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: The thresholds tested, highest first: fixed before any data is seen.
THRESHOLD_GRID: tuple[float, ...] = tuple(round(1.0 - i / 100, 2) for i in range(101))
DEFAULT_TARGET = 0.8
DEFAULT_ERROR = 0.1
#: The fixed sequence starts at the threshold with this share of the calibration verdicts.
START_SHARE = 0.2


def binomial_p_value(disagreements: int, n: int, risk: float) -> float:
    """P(at most ``disagreements`` of ``n``) when each disagrees with probability ``risk``:
    small when the disagreement rate is below ``risk`` (1.0 for ``n == 0``)."""
    if n <= 0:
        return 1.0
    from scipy import stats  # scipy.stats costs a second at import: only when used

    return float(stats.binom.cdf(disagreements, n, risk))


def clopper_pearson_upper(disagreements: int, n: int, error: float) -> float:
    """The exact one-sided upper ``1 - error`` bound of a binomial rate (1.0 for ``n == 0``)."""
    if n <= 0 or disagreements >= n:
        return 1.0
    from scipy import stats

    return float(stats.beta.ppf(1.0 - error, disagreements + 1, n - disagreements))


@dataclass(frozen=True)
class ThresholdChoice:
    """The threshold chosen (None: abstain on everything) and what the calibration set says
    about it: verdicts given, how many agreed, the upper bound of the disagreement rate."""

    threshold: float | None
    given: int
    agreed: int
    upper_disagreement: float

    @property
    def lower_agreement(self) -> float:
        """The guaranteed agreement bound on the calibration set (0.0 without a threshold)."""
        return 0.0 if self.threshold is None else 1.0 - self.upper_disagreement


def min_given(target: float, error: float) -> int:
    """The fewest verdicts whose agreeing all could reject H0: ``target ** n <= error``."""
    return max(1, math.ceil(math.log(error) / math.log(target) - 1e-12))


def _check_levels(target: float, error: float) -> None:
    if not 0.0 < target < 1.0 or not 0.0 < error < 1.0:
        raise ValueError("target and error level must be strictly between 0 and 1")


def start_depth(n: int, target: float, error: float) -> int:
    """How many calibration verdicts a threshold needs above it to be tested, of ``n``."""
    return max(min_given(target, error), math.ceil(n * START_SHARE - 1e-12))


def _counts(scores: np.ndarray, agrees: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, ...]:
    """(verdicts given, verdicts agreeing) at each threshold of ``grid``, for every row of the
    2-D ``scores`` and ``agrees`` (one calibration set per row)."""
    rows, n = scores.shape
    order = np.argsort(scores, axis=1)
    ranked = np.take_along_axis(scores, order, 1)
    hits = np.concatenate(
        [np.zeros((rows, 1)), np.cumsum(np.take_along_axis(agrees, order, 1), 1)], 1
    )
    # One sorted array for all rows: row r's scores (in [0, 1]) are shifted by 4 r.
    shift = 4.0 * np.arange(rows)[:, None]
    flat = np.searchsorted((ranked + shift).ravel(), (grid[None, :] - 1e-12 + shift).ravel())
    below = flat.reshape(rows, -1) - n * np.arange(rows)[:, None]
    return n - below, hits[:, -1:] - np.take_along_axis(hits, below, 1)


def batch_thresholds(
    scores: np.ndarray,
    agrees: np.ndarray,
    target: float = DEFAULT_TARGET,
    error: float = DEFAULT_ERROR,
    grid: Sequence[float] = THRESHOLD_GRID,
) -> np.ndarray:
    """:func:`fixed_sequence_threshold` on every row of the 2-D ``scores`` / ``agrees`` at once
    (a simulation's calibration sets): the index in ``grid`` of each row's threshold, -1 where
    there is none."""
    _check_levels(target, error)
    thresholds = np.asarray(grid, dtype=np.float64)
    s, a = np.atleast_2d(np.asarray(scores, np.float64)), np.atleast_2d(np.asarray(agrees, bool))
    if s.shape != a.shape:
        raise ValueError("one label per score")
    given, agreed = _counts(s, a, thresholds)
    tested = given >= start_depth(s.shape[1], target, error)
    from scipy import stats

    p_values = stats.binom.cdf(given - agreed, np.maximum(given, 1), 1.0 - target)
    position = np.arange(len(thresholds))[None, :]
    first = np.where(tested, position, len(thresholds)).min(1)
    stop = np.where(tested & (p_values > error), position, len(thresholds)).min(1)
    return np.where(stop > first, stop - 1, -1)


def fixed_sequence_threshold(
    scores: Sequence[float],
    agrees: Sequence[bool],
    target: float = DEFAULT_TARGET,
    error: float = DEFAULT_ERROR,
    grid: Sequence[float] = THRESHOLD_GRID,
) -> ThresholdChoice:
    """The lowest threshold of ``grid`` (descending) rejected in a fixed-sequence test of
    "agreement above it is below ``target``" at level ``error`` (see the module docstring).

    ``scores[i]`` is calibration verdict i's score, ``agrees[i]`` whether it agrees with the
    person's (non-tied) label.
    """
    if len(scores) != len(agrees):
        raise ValueError("one label per score")
    _check_levels(target, error)
    if not len(scores):
        return ThresholdChoice(None, 0, 0, 1.0)
    s, a = np.asarray([scores], np.float64), np.asarray([agrees], bool)
    index = int(batch_thresholds(s, a, target, error, grid)[0])
    if index < 0:
        return ThresholdChoice(None, 0, 0, 1.0)
    given, agreed = (int(x[0, index]) for x in _counts(s, a, np.asarray(grid, np.float64)))
    upper = clopper_pearson_upper(given - agreed, given, error)
    return ThresholdChoice(float(grid[index]), given, agreed, upper)


def point_estimate_threshold(
    scores: Sequence[float],
    agrees: Sequence[bool],
    target: float = DEFAULT_TARGET,
    grid: Sequence[float] = THRESHOLD_GRID,
) -> float | None:
    """The lowest threshold whose observed agreement reaches ``target``: **no guarantee**
    (it ignores sampling error). Kept to show, by simulation, why the test above is needed."""
    thresholds = np.asarray(grid, dtype=np.float64)
    given, agreed = (
        x[0]
        for x in _counts(
            np.asarray([scores], dtype=np.float64), np.asarray([agrees], dtype=bool), thresholds
        )
    )
    reached = np.flatnonzero((given > 0) & (agreed >= target * given))
    return float(thresholds[reached].min()) if len(reached) else None


def platt_fit(scores: Sequence[float], agrees: Sequence[bool]) -> tuple[float, float]:
    """(intercept, slope) of P(agree | score) = sigmoid(intercept + slope * score), fitted by
    Newton's method with Platt's smoothed targets; the slope is kept at or above 0 (a score
    that does not rise with agreement gives every verdict the base rate)."""
    s = np.asarray(scores, dtype=np.float64)
    a = np.asarray(agrees, dtype=np.float64)
    if len(s) == 0:
        raise ValueError("no labelled verdicts to calibrate on")
    positives = a.sum()
    negatives = len(a) - positives
    t = np.where(a > 0, (positives + 1) / (positives + 2), 1 / (negatives + 2))
    x = np.column_stack([np.ones_like(s), s])
    w = np.zeros(2)
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - t)
        hess = x.T @ (x * (p * (1 - p))[:, None]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    if w[1] < 0:
        base = float(t.mean())
        return float(np.log(base / (1 - base))), 0.0
    return float(w[0]), float(w[1])


def platt(score: float, intercept: float, slope: float) -> float:
    """The calibrated probability of a score under a Platt fit."""
    return float(1 / (1 + np.exp(-(intercept + slope * score))))

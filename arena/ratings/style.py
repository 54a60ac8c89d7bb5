"""Style control: Bradley-Terry with an answer-length covariate.

P(A beats B) = sigmoid(s_a - s_b + beta * z) where z is the standardised length feature
``(len_a - len_b) / (len_a + len_b + 1)``. Strengths and beta are fitted jointly by
L-BFGS-B on the raw battles (ties as half-wins, battle weights honoured), so the ratings
are what the models would score if their answers were equally long.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy.special import expit

from arena.ratings.battles import Battles, FloatArray
from arena.ratings.bootstrap import (
    CI_PERCENTILES,
    DEFAULT_ROUNDS,
    BootstrapResult,
    query_multiplicities,
)
from arena.ratings.bradley_terry import BASE, DEFAULT_REG, INITIAL, SCALE, log_strength_to_elo


@dataclass(frozen=True, eq=False)
class StyleFit:
    """Length-adjusted ratings (Elo points, ``models`` order) and the length coefficient.

    ``coef`` is the log-odds change per standard deviation of the length feature (> 0: the
    longer answer tends to win); ``coef_elo`` is the same in Elo points.
    """

    models: tuple[str, ...]
    rating: FloatArray
    coef: float
    coef_elo: float
    feature_mean: float
    feature_std: float


def length_feature(len_a: FloatArray, len_b: FloatArray) -> tuple[FloatArray, float, float]:
    """Standardised ``(len_a - len_b) / (len_a + len_b + 1)`` with its mean and std.

    A constant feature (std 0) is returned as zeros.
    """
    raw = (len_a - len_b) / (len_a + len_b + 1.0)
    mean = float(raw.mean()) if raw.size else 0.0
    std = float(raw.std()) if raw.size else 0.0
    z = (raw - mean) / std if std > 0.0 else np.zeros_like(raw)
    return z, mean, std


def _require_lengths(battles: Battles) -> tuple[FloatArray, float, float]:
    if battles.len_a is None or battles.len_b is None:
        raise ValueError("style control needs battles with len_a and len_b")
    return length_feature(battles.len_a, battles.len_b)


def _fit_params(battles: Battles, z: FloatArray, weight: FloatArray, reg: float) -> FloatArray:
    """Jointly fitted (log-strengths..., beta) minimising the penalised weighted NLL.

    L-BFGS-B with the analytic gradient, then polished by exact Newton steps.
    """
    if not reg > 0.0:
        raise ValueError("reg must be > 0")
    m = battles.n_models
    a, b, y = battles.model_a, battles.model_b, battles.outcome
    norm = max(float(weight.sum()), 1.0)

    def fun(theta: FloatArray) -> tuple[float, FloatArray]:
        s, beta = theta[:m], theta[m]
        x = s[a] - s[b] + beta * z
        f = weight @ (np.logaddexp(0.0, x) - y * x) + 0.5 * reg * theta @ theta
        r = weight * (expit(x) - y)
        grad = np.empty(m + 1)
        grad[:m] = np.bincount(a, weights=r, minlength=m) - np.bincount(b, weights=r, minlength=m)
        grad[m] = r @ z
        grad += reg * theta
        return float(f) / norm, grad / norm

    res = optimize.minimize(
        fun,
        np.zeros(m + 1),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 20_000, "maxfun": 40_000, "ftol": 1e-15, "gtol": 1e-11, "maxcor": 20},
    )
    theta = np.asarray(res.x, dtype=np.float64)
    theta[:m] -= theta[:m].mean()
    return _newton(battles, z, weight, reg, theta)


def _objective(
    theta: FloatArray, x: FloatArray, y: FloatArray, weight: FloatArray, reg: float
) -> float:
    return float(weight @ (np.logaddexp(0.0, x) - y * x) + 0.5 * reg * theta @ theta)


def _newton(
    battles: Battles,
    z: FloatArray,
    weight: FloatArray,
    reg: float,
    theta: FloatArray,
    *,
    tol: float = 1e-10,
    max_iter: int = 100,
) -> FloatArray:
    """Damped Newton on the style model from ``theta`` (strengths..., beta).

    As for plain BT, a step moving no battle's logit by more than 1/2 provably satisfies
    the Armijo condition; larger steps backtrack on the objective.
    """
    m = battles.n_models
    a, b, y = battles.model_a, battles.model_b, battles.outcome
    theta = theta.copy()
    for _ in range(max_iter):
        s, beta = theta[:m], theta[m]
        x = s[a] - s[b] + beta * z
        sig = expit(x)
        r = weight * (sig - y)
        h = weight * sig * (1.0 - sig)
        grad = np.empty(m + 1)
        grad[:m] = np.bincount(a, weights=r, minlength=m) - np.bincount(b, weights=r, minlength=m)
        grad[m] = r @ z
        grad += reg * theta
        pair = np.bincount(a * m + b, weights=h, minlength=m * m).reshape(m, m)
        pair += pair.T
        hess = np.empty((m + 1, m + 1))
        hess[:m, :m] = np.diag(pair.sum(axis=1)) - pair
        hz = h * z
        hess[:m, m] = np.bincount(a, weights=hz, minlength=m) - np.bincount(
            b, weights=hz, minlength=m
        )
        hess[m, :m] = hess[:m, m]
        hess[m, m] = hz @ z
        hess += reg * np.eye(m + 1)
        # shift invariance of the strengths: see bradley_terry._newton_chunk
        hess[:m, :m] += np.trace(hess[:m, :m]) / (m * m)
        step = -np.linalg.solve(hess, grad)
        step[:m] -= step[:m].mean()
        dx = step[a] - step[b] + step[m] * z
        t = 1.0
        if dx.size and np.abs(dx).max() > 0.5:
            f0 = _objective(theta, x, y, weight, reg)
            slope = float(grad @ step)
            for _ in range(60):
                trial = theta + t * step
                if _objective(trial, x + t * dx, y, weight, reg) <= f0 + 1e-4 * t * slope + (
                    1e-12 * abs(f0)
                ):
                    break
                t *= 0.5
        theta += t * step
        theta[:m] -= theta[:m].mean()
        if np.abs(t * step).max() <= tol:
            break
    return theta


def fit_style_controlled(
    battles: Battles,
    *,
    anchor: str | None = None,
    reg: float = DEFAULT_REG,
    scale: float = SCALE,
    base: float = BASE,
    initial: float = INITIAL,
) -> StyleFit:
    """Length-controlled Bradley-Terry ratings and the fitted length coefficient.

    Raises:
        ValueError: if ``battles`` carries no ``len_a``/``len_b``.
    """
    z, mean, std = _require_lengths(battles)
    anchor_index = None if anchor is None else battles.index_of(anchor)
    theta = _fit_params(battles, z, battles.weight, reg)
    m = battles.n_models
    rating = log_strength_to_elo(
        theta[:m], anchor_index=anchor_index, scale=scale, base=base, initial=initial
    )
    coef = float(theta[m])
    return StyleFit(battles.models, rating, coef, coef * scale / np.log(base), mean, std)


def bootstrap_style_controlled(
    battles: Battles,
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    anchor: str | None = None,
    reg: float = DEFAULT_REG,
    scale: float = SCALE,
    base: float = BASE,
    initial: float = INITIAL,
) -> BootstrapResult:
    """Length-controlled ratings with 95% query-bootstrap intervals.

    Each round reweights battles by their query's multinomial multiplicity and refits by
    damped Newton warm-started from the point estimate (the feature standardisation is kept
    from the full data). Costlier than :func:`bootstrap_bradley_terry`: O(battles) per
    round.
    """
    if rounds < 1:
        raise ValueError("rounds must be >= 1")
    z, _, _ = _require_lengths(battles)
    anchor_index = None if anchor is None else battles.index_of(anchor)
    m = battles.n_models
    point = _fit_params(battles, z, battles.weight, reg)
    _, query = np.unique(battles.query, return_inverse=True)
    query = query.reshape(-1)
    n_queries = int(query.max()) + 1 if query.size else 0
    rng = np.random.default_rng(seed)
    samples = np.tile(point[:m], (rounds, 1))
    done = 0
    for mult in query_multiplicities(max(n_queries, 1), rounds, rng):
        for row in mult:
            weight = battles.weight * row[query] if n_queries else battles.weight
            samples[done] = _newton(battles, z, weight, reg, point)[:m]
            done += 1
    rating, sample_ratings = (
        log_strength_to_elo(s, anchor_index=anchor_index, scale=scale, base=base, initial=initial)
        for s in (point[:m], samples)
    )
    low, high = np.percentile(sample_ratings, CI_PERCENTILES, axis=0)
    return BootstrapResult(battles.models, rating, low, high, sample_ratings)

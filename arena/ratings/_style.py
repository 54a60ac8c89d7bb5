"""Style control: Bradley-Terry with style covariates (length, markdown counts, the seat).

P(A beats B) = sigmoid(s_a - s_b + sum_j beta_j * z_j) where each ``z_j`` is a covariate of
:mod:`arena.ratings._style_features` (uncentred, scaled to unit root-mean-square). Strengths
and betas are fitted jointly on the raw battles (ties as half-wins, weights honoured), by
L-BFGS-B then exact Newton, under the same L2 prior as plain Bradley-Terry. The ratings are
what the models would score with equally styled answers (every ratio zero) and no seat
advantage, whatever seat order the battles were stored in.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from arena.ratings._battle_arrays import Battles, FloatArray, IntArray
from arena.ratings._bootstrap import DEFAULT_ROUNDS
from arena.ratings._bradley_terry import BASE, DEFAULT_REG, INITIAL, SCALE, log_strength_to_elo
from arena.ratings._fit import Effect, RatingFit
from arena.ratings._intervals import bootstrap_interval
from arena.ratings._line_search import armijo_steps
from arena.ratings._resampling import query_multiplicities
from arena.ratings._style_features import LENGTH, style_matrix

_LBFGS = {"maxiter": 20_000, "maxfun": 40_000, "ftol": 1e-15, "gtol": 1e-11, "maxcor": 20}


class _Problem:
    """Battles, design columns and weights of one style fit; the objective and its steps."""

    def __init__(self, battles: Battles, z: FloatArray, reg: float) -> None:
        if not reg > 0.0:
            raise ValueError("reg must be > 0")
        self.a, self.b, self.y = battles.model_a, battles.model_b, battles.outcome
        self.m, self.z, self.reg = battles.n_models, z, reg

    def logits(self, theta: FloatArray) -> FloatArray:
        m = self.m
        return np.asarray(theta[self.a] - theta[self.b] + self.z @ theta[m:], dtype=np.float64)

    def value(self, theta: FloatArray, x: FloatArray, w: FloatArray) -> float:
        return float(w @ (np.logaddexp(0.0, x) - self.y * x) + 0.5 * self.reg * theta @ theta)

    def gradient(self, theta: FloatArray, r: FloatArray) -> FloatArray:
        """Gradient from residuals ``r = w * (sigmoid(x) - y)``."""
        m = self.m
        grad = np.empty_like(theta)
        grad[:m] = np.bincount(self.a, r, m) - np.bincount(self.b, r, m)
        grad[m:] = self.z.T @ r
        return np.asarray(grad + self.reg * theta, dtype=np.float64)

    def hessian(self, h: FloatArray) -> FloatArray:
        """Hessian from curvatures ``h = w * sigmoid(x) * (1 - sigmoid(x))``."""
        m, k = self.m, self.z.shape[1]
        a, b = self.a, self.b
        pair = np.bincount(a * m + b, weights=h, minlength=m * m).reshape(m, m)
        pair += pair.T
        hess = np.empty((m + k, m + k))
        hess[:m, :m] = np.diag(pair.sum(axis=1)) - pair
        hz = h[:, None] * self.z
        for j in range(k):
            col = np.bincount(a, hz[:, j], m) - np.bincount(b, hz[:, j], m)
            hess[:m, m + j] = col
            hess[m + j, :m] = col
        hess[m:, m:] = self.z.T @ hz
        hess += self.reg * np.eye(m + k)
        # shift invariance of the strengths: see bradley_terry._newton_chunk
        hess[:m, :m] += np.trace(hess[:m, :m]) / (m * m)
        return hess

    def lbfgs(self, w: FloatArray) -> FloatArray:
        from scipy import optimize  # heavy to import; only style fits need it

        norm = max(float(w.sum()), 1.0)

        def fun(theta: FloatArray) -> tuple[float, FloatArray]:
            x = self.logits(theta)
            r = w * (expit(x) - self.y)
            return self.value(theta, x, w) / norm, self.gradient(theta, r) / norm

        start = np.zeros(self.m + self.z.shape[1])
        res = optimize.minimize(fun, start, jac=True, method="L-BFGS-B", options=_LBFGS)
        theta = np.asarray(res.x, dtype=np.float64)
        theta[: self.m] -= theta[: self.m].mean()
        return theta

    def newton(
        self, w: FloatArray, theta: FloatArray, *, tol: float = 1e-10, max_iter: int = 100
    ) -> FloatArray:
        """Damped Newton from ``theta`` (strengths..., betas...).

        As for plain BT, a step moving no battle's logit by more than 1/2 provably satisfies
        the Armijo condition; larger steps backtrack on the objective.
        """
        m = self.m
        theta = theta.copy()
        for _ in range(max_iter):
            x = self.logits(theta)
            sig = expit(x)
            grad = self.gradient(theta, w * (sig - self.y))
            hess = self.hessian(w * sig * (1.0 - sig))
            step = np.asarray(-np.linalg.solve(hess, grad), dtype=np.float64)
            step[:m] -= step[:m].mean()
            dx = self.logits(step)
            t = 1.0
            if dx.size and np.abs(dx).max() > 0.5:
                t = self._step_length(theta, x, dx, step, grad, w)
            theta += t * step
            theta[:m] -= theta[:m].mean()
            if np.abs(t * step).max() <= tol:
                break
        return theta

    def _step_length(
        self,
        theta: FloatArray,
        x: FloatArray,
        dx: FloatArray,
        step: FloatArray,
        grad: FloatArray,
        w: FloatArray,
    ) -> float:
        """The Armijo step length along ``step`` (the solvers' one line search)."""

        def objective(_todo: IntArray, t: FloatArray) -> FloatArray:
            return np.array([self.value(theta + t[0] * step, x + t[0] * dx, w)])

        f0 = np.array([self.value(theta, x, w)])
        return float(armijo_steps(f0, np.array([float(grad @ step)]), objective)[0])


def _to_fit(
    battles: Battles,
    names: tuple[str, ...],
    scales: FloatArray,
    point: FloatArray,
    samples: FloatArray | None,
    anchor: str | None,
    elo_args: dict[str, float],
    n_units: int = 0,
) -> RatingFit:
    m = battles.n_models
    anchor_index = None if anchor is None else battles.index_of(anchor)
    per_nat = elo_args["scale"] / np.log(elo_args["base"])
    rating = log_strength_to_elo(point[:m], anchor_index=anchor_index, **elo_args)
    if samples is None:
        ratings = np.empty((0, m))
        low = high = np.full(m, np.nan)
        coef_low = coef_high = np.full(len(names), np.nan)
    else:
        ratings = log_strength_to_elo(samples[:, :m], anchor_index=anchor_index, **elo_args)
        low, high = bootstrap_interval(ratings, n_units, point=rating)
        coefs = bootstrap_interval(samples[:, m:], n_units, point=point[m:])
        coef_low, coef_high = (bound * per_nat for bound in coefs)
    effects = tuple(
        Effect(
            name,
            float(point[m + j]),
            float(point[m + j] * per_nat),
            float(coef_low[j]),
            float(coef_high[j]),
            float(scales[j]),
        )
        for j, name in enumerate(names)
    )
    return RatingFit(battles.models, rating, low, high, ratings, effects)


def fit_style_controlled(
    battles: Battles,
    *,
    features: tuple[str, ...] = (LENGTH,),
    anchor: str | None = None,
    reg: float = DEFAULT_REG,
    scale: float = SCALE,
    base: float = BASE,
    initial: float = INITIAL,
) -> RatingFit:
    """Style-controlled Bradley-Terry ratings and the fitted effects (no intervals).

    Raises:
        ValueError: if the battles lack a covariate's counts or the seat is not identifiable.
    """
    z, scales = style_matrix(battles, features)
    problem = _Problem(battles, z, reg)
    point = problem.newton(battles.weight, problem.lbfgs(battles.weight))
    elo_args = {"scale": scale, "base": base, "initial": initial}
    return _to_fit(battles, features, scales, point, None, anchor, elo_args)


def bootstrap_style_controlled(
    battles: Battles,
    *,
    features: tuple[str, ...] = (LENGTH,),
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    anchor: str | None = None,
    reg: float = DEFAULT_REG,
    scale: float = SCALE,
    base: float = BASE,
    initial: float = INITIAL,
) -> RatingFit:
    """Style-controlled ratings and effects with 95% query-bootstrap intervals.

    Each round reweights battles by their query's multinomial multiplicity and refits by
    damped Newton warm-started from the point estimate (the covariates' scales are kept
    from the full data). Costlier than :func:`bootstrap_bradley_terry`: O(battles) per round.
    """
    if rounds < 1:
        raise ValueError("rounds must be >= 1")
    z, scales = style_matrix(battles, features)
    problem = _Problem(battles, z, reg)
    point = problem.newton(battles.weight, problem.lbfgs(battles.weight))
    _, query = np.unique(battles.query, return_inverse=True)
    query = query.reshape(-1)
    n_queries = int(query.max()) + 1 if query.size else 0
    rng = np.random.default_rng(seed)
    samples = np.tile(point, (rounds, 1))
    done = 0
    for mult in query_multiplicities(max(n_queries, 1), rounds, rng):
        for row in mult:
            if n_queries:
                samples[done] = problem.newton(battles.weight * row[query], point)
            done += 1
    elo_args = {"scale": scale, "base": base, "initial": initial}
    return _to_fit(battles, features, scales, point, samples, anchor, elo_args, n_queries)

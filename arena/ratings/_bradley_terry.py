"""Bradley-Terry maximum likelihood on aggregated pair counts, reported on the Elo scale.

Model: P(i beats j) = sigmoid(s_i - s_j) with log-strengths ``s``. Battles are collapsed to
unique unordered pairs (a tie is half a win each way) and the penalised negative
log-likelihood

    f(s) = sum_p [ w_p * softplus(-(s_lo - s_hi)) + (n_p - w_p) * softplus(s_lo - s_hi) ]
           + reg / 2 * ||s||^2

is minimised. The L2 term (a weak Gaussian prior, :data:`DEFAULT_REG`) makes the optimum
unique (its mean is exactly zero) and keeps a model that never wins or never loses finite;
disconnected comparison graphs are fine.
Ratings are ``scale / ln(base) * s + initial``, i.e. Elo points.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.special import expit

from arena.ratings._battle_arrays import Battles, FloatArray, IntArray
from arena.ratings._line_search import armijo_steps
from arena.ratings._pair_counts import PairCounts, aggregate_pairs
from arena.ratings._sparse_newton import PairGraph, fit_columns

SCALE = 400.0
BASE = 10.0
INITIAL = 1000.0
#: The one default L2 prior on log-strengths (on the summed, not averaged, log-likelihood),
#: used by every Bradley-Terry fit, the CLI's ``--reg`` and :class:`RatingOptions`: a normal
#: prior with variance 10 (sd ~3.2 nats, ~1370 Elo), negligible on large arenas but enough to
#: keep a small arena's undefeated or winless model finite.
DEFAULT_REG = 0.1
#: Bytes of Hessians the batched Newton solver may hold at once.
_HESSIAN_BUDGET = 64 * 2**20
#: Largest model count for which fit_log_strengths finishes with dense Newton steps; above
#: it the fit is sparse Newton-CG (linear in the number of pairs) to the same accuracy.
_POLISH_MAX_MODELS = 1000
#: Newton step (nats) that ends the sparse fit: its error is about the square of this.
_SPARSE_TOL = 1e-8


def log_strength_to_elo(
    log_strength: FloatArray,
    *,
    anchor_index: int | None = None,
    scale: float = SCALE,
    base: float = BASE,
    initial: float = INITIAL,
) -> FloatArray:
    """Map log-strengths (last axis = models) to Elo points.

    Centred so the mean log-strength sits at ``initial``, or shifted so the model at
    ``anchor_index`` sits exactly at ``initial``.
    """
    s = np.asarray(log_strength, dtype=np.float64)
    if s.shape[-1] == 0:
        return s.copy()
    if anchor_index is None:
        ref = s.mean(axis=-1, keepdims=True)
    else:
        ref = s[..., anchor_index : anchor_index + 1]
    return np.asarray(scale / np.log(base) * (s - ref) + initial, dtype=np.float64)


def _nll(s: FloatArray, counts: PairCounts, reg: float) -> tuple[float, FloatArray]:
    """Penalised negative log-likelihood and its gradient."""
    d = s[counts.lo] - s[counts.hi]
    losses = counts.total - counts.wins_lo
    f = float(
        counts.wins_lo @ np.logaddexp(0.0, -d) + losses @ np.logaddexp(0.0, d) + 0.5 * reg * s @ s
    )
    r = counts.total * expit(d) - counts.wins_lo
    m = counts.n_models
    g = np.bincount(counts.lo, weights=r, minlength=m)
    g -= np.bincount(counts.hi, weights=r, minlength=m)
    return f, g + reg * s


def fit_log_strengths(
    counts: PairCounts,
    *,
    reg: float = DEFAULT_REG,
    x0: FloatArray | None = None,
    polish: bool = True,
) -> FloatArray:
    """Penalised BT log-strengths from pair counts.

    Minimised with scipy's L-BFGS-B using the analytic gradient (warm-started from ``x0``
    if given), then (``polish``, up to 1000 models) finished with exact Newton steps so the
    optimum is accurate to ~1e-10. Above 1000 models ``polish`` fits by sparse Newton-CG
    instead (:mod:`~arena.ratings._sparse_newton`; no models x models matrix), to the same
    accuracy. The result has mean zero.
    """
    from scipy import optimize  # heavy to import; the bootstrap's Newton path never needs it

    if not reg > 0.0:
        raise ValueError("reg must be > 0 (it makes the Bradley-Terry optimum unique)")
    m = counts.n_models
    if m == 0:
        return np.zeros(0)
    if polish and m > _POLISH_MAX_MODELS:
        graph = PairGraph(counts.lo, counts.hi, m)
        columns = (counts.wins_lo[:, None], counts.total[:, None])
        begin = np.zeros(m) if x0 is None else np.asarray(x0, dtype=np.float64)
        return fit_columns(graph, *columns, reg, begin, tol=_SPARSE_TOL)[:, 0]
    norm = max(float(counts.total.sum()), 1.0)

    def fun(s: FloatArray) -> tuple[float, FloatArray]:
        f, g = _nll(s, counts, reg)
        return f / norm, g / norm

    start = np.zeros(m) if x0 is None else np.asarray(x0, dtype=np.float64).copy()
    res = optimize.minimize(
        fun,
        start,
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 20_000, "maxfun": 40_000, "ftol": 1e-15, "gtol": 1e-11, "maxcor": 20},
    )
    s = np.asarray(res.x, dtype=np.float64)
    s -= s.mean()
    if polish and m <= _POLISH_MAX_MODELS:
        s = newton_fit_batch(
            counts.lo, counts.hi, counts.wins_lo[None, :], counts.total[None, :], m, reg, s
        )[0]
    return s


class _Incidence:
    """Pair/model incidence as sparse matrices: signed (+1 lo, -1 hi) and unsigned."""

    def __init__(self, lo: IntArray, hi: IntArray, n_models: int) -> None:
        n_pairs = lo.shape[0]
        rows = np.concatenate([lo, hi])
        cols = np.concatenate([np.arange(n_pairs), np.arange(n_pairs)])
        signs = np.concatenate([np.ones(n_pairs), -np.ones(n_pairs)])
        shape = (n_models, n_pairs)
        self.lo, self.hi = lo, hi
        self.signed = sparse.csr_matrix((signs, (rows, cols)), shape=shape)
        self.signed_t = self.signed.T.tocsr()
        self.unsigned = sparse.csr_matrix((np.abs(signs), (rows, cols)), shape=shape)

    def diffs(self, s: FloatArray) -> FloatArray:
        """(rows x pairs) ``s_lo - s_hi`` for (rows x models) ``s``."""
        return np.asarray(self.signed_t @ s.T).T

    def to_models(self, values: FloatArray, *, signed: bool = True) -> FloatArray:
        """(rows x models) sums of (rows x pairs) values, +lo -hi (signed) or +lo +hi."""
        matrix = self.signed if signed else self.unsigned
        return np.asarray(matrix @ values.T).T


def _rows_objective(
    s: FloatArray, d: FloatArray, wins: FloatArray, total: FloatArray, reg: float
) -> FloatArray:
    """Row-wise objective from ``d = s_lo - s_hi``: ``n softplus(d) - w d`` plus the penalty."""
    val = (total * np.logaddexp(0.0, d) - wins * d).sum(axis=1)
    return np.asarray(val + 0.5 * reg * np.einsum("ij,ij->i", s, s), dtype=np.float64)


def newton_fit_batch(
    lo: IntArray,
    hi: IntArray,
    wins: FloatArray,
    total: FloatArray,
    n_models: int,
    reg: float,
    start: FloatArray,
    *,
    tol: float = 1e-10,
    max_iter: int = 100,
) -> FloatArray:
    """Fit many BT problems at once (one per row of ``wins``/``total``) by damped Newton.

    All rows share the pair list ``lo``/``hi``; ``start`` is one warm start (models,) or one
    per row. Each iteration builds the (rows x models x models) Hessians and solves them in
    a batch. A step that changes no pair difference by more than 1/2 provably satisfies the
    Armijo condition (the logistic curvature changes by at most a factor e^(1/2) along it),
    so only rows with larger steps evaluate the objective and backtrack. Rows are processed
    in chunks to bound memory. Returns (rows x models) log-strengths with zero row means.
    """
    if not reg > 0.0:
        raise ValueError("reg must be > 0 (it makes the Bradley-Terry optimum unique)")
    wins = np.atleast_2d(np.asarray(wins, dtype=np.float64))
    total = np.atleast_2d(np.asarray(total, dtype=np.float64))
    n_rows = wins.shape[0]
    if n_models < 2 or n_rows == 0 or lo.size == 0:
        return np.zeros((n_rows, n_models))  # no pairs: only the penalty, minimised at 0
    s0 = np.broadcast_to(np.asarray(start, dtype=np.float64), (n_rows, n_models))
    out: FloatArray = s0 - s0.mean(axis=1, keepdims=True)
    inc = _Incidence(lo, hi, n_models)
    chunk = max(1, _HESSIAN_BUDGET // (8 * n_models * n_models))
    for first in range(0, n_rows, chunk):
        rows = slice(first, min(n_rows, first + chunk))
        out[rows] = _newton_chunk(inc, wins[rows], total[rows], reg, out[rows], tol, max_iter)
    return out


def _newton_chunk(
    inc: _Incidence,
    wins: FloatArray,
    total: FloatArray,
    reg: float,
    s: FloatArray,
    tol: float,
    max_iter: int,
) -> FloatArray:
    s = s.copy()
    n_models = s.shape[1]
    diag_idx = np.arange(n_models)
    active = np.arange(s.shape[0])
    for _ in range(max_iter):
        if active.size == 0:
            break
        sa, wa, ta = s[active], wins[active], total[active]
        d = inc.diffs(sa)
        sig = expit(d)
        grad = inc.to_models(ta * sig - wa) + reg * sa
        h = ta * sig * (1.0 - sig)
        hess = np.zeros((active.size, n_models, n_models))
        hess[:, inc.lo, inc.hi] = -h
        hess[:, inc.hi, inc.lo] = -h
        diag = inc.to_models(h, signed=False) + reg
        hess[:, diag_idx, diag_idx] = diag
        # The likelihood is shift invariant (null vector 1): adding mu * 1 1^T leaves the
        # Newton step unchanged on the centred subspace but makes the system well conditioned.
        hess += (diag.mean(axis=1) / n_models)[:, None, None]
        step = np.asarray(-np.linalg.solve(hess, grad[:, :, None])[:, :, 0], dtype=np.float64)
        step -= step.mean(axis=1, keepdims=True)
        t = np.ones(active.size)
        risky = np.flatnonzero(np.abs(inc.diffs(step)).max(axis=1) > 0.5)
        if risky.size:
            t[risky] = _backtrack(
                inc, sa[risky], d[risky], step[risky], grad[risky], wa[risky], ta[risky], reg
            )
        new_s = sa + t[:, None] * step
        # Re-centring is the exact minimisation over a common shift (d is unchanged).
        new_s -= new_s.mean(axis=1, keepdims=True)
        s[active] = new_s
        active = active[np.abs(t[:, None] * step).max(axis=1) > tol]
    return s


def _backtrack(
    inc: _Incidence,
    s: FloatArray,
    d: FloatArray,
    step: FloatArray,
    grad: FloatArray,
    wins: FloatArray,
    total: FloatArray,
    reg: float,
) -> FloatArray:
    """Armijo step lengths for rows whose Newton step may overshoot."""

    def objective(todo: IntArray, t: FloatArray) -> FloatArray:
        trial = s[todo] + t[:, None] * step[todo]
        return _rows_objective(trial, inc.diffs(trial), wins[todo], total[todo], reg)

    f0 = _rows_objective(s, d, wins, total, reg)
    return armijo_steps(f0, np.einsum("ij,ij->i", grad, step), objective)


def bradley_terry(
    battles: Battles,
    *,
    anchor: str | None = None,
    reg: float = DEFAULT_REG,
    scale: float = SCALE,
    base: float = BASE,
    initial: float = INITIAL,
) -> FloatArray:
    """Bradley-Terry ratings (Elo points) for ``battles.models``, in that order.

    Mean rating is ``initial``, or ``anchor``'s rating is exactly ``initial``.
    """
    anchor_index = None if anchor is None else battles.index_of(anchor)
    s = fit_log_strengths(aggregate_pairs(battles), reg=reg)
    return log_strength_to_elo(
        s, anchor_index=anchor_index, scale=scale, base=base, initial=initial
    )

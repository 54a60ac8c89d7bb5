"""Bradley-Terry maximum likelihood on aggregated pair counts, reported on the Elo scale.

Model: P(i beats j) = sigmoid(s_i - s_j) with log-strengths ``s``. Battles are collapsed to
unique unordered pairs (a tie is half a win each way) and the penalised negative
log-likelihood

    f(s) = sum_p [ w_p * softplus(-(s_lo - s_hi)) + (n_p - w_p) * softplus(s_lo - s_hi) ]
           + reg / 2 * ||s||^2

is minimised. The tiny L2 term makes the optimum unique (its mean is exactly zero) and keeps
a model that never wins or never loses finite; disconnected comparison graphs are fine.
Ratings are ``scale / ln(base) * s + initial``, i.e. Elo points.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, sparse
from scipy.special import expit

from arena.ratings.battles import Battles, FloatArray, IntArray, PairCounts, aggregate_pairs

SCALE = 400.0
BASE = 10.0
INITIAL = 1000.0
#: Default L2 penalty on log-strengths (on the summed, not averaged, log-likelihood).
DEFAULT_REG = 1e-6
#: Bytes of Hessians the batched Newton solver may hold at once.
_HESSIAN_BUDGET = 64 * 2**20


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
    if anchor_index is None:
        ref = s.mean(axis=-1, keepdims=True)
    else:
        ref = s[..., anchor_index : anchor_index + 1]
    return scale / np.log(base) * (s - ref) + initial


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

    Minimised with scipy's L-BFGS-B using the analytic gradient, then (``polish``)
    finished with a few exact Newton steps so the optimum is accurate to ~1e-10.
    The result has mean zero.
    """
    if not reg > 0.0:
        raise ValueError("reg must be > 0 (it makes the Bradley-Terry optimum unique)")
    m = counts.n_models
    if m == 0:
        return np.zeros(0)
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
    if polish:
        s = newton_fit_batch(
            counts.lo, counts.hi, counts.wins_lo[None, :], counts.total[None, :], m, reg, s
        )[0]
    return s


def _incidence(
    lo: IntArray, hi: IntArray, n_models: int
) -> tuple[sparse.csr_matrix, sparse.csr_matrix]:
    """Signed (+1 lo, -1 hi) and unsigned pair-to-model incidence, both models x pairs."""
    n_pairs = lo.shape[0]
    rows = np.concatenate([lo, hi])
    cols = np.concatenate([np.arange(n_pairs), np.arange(n_pairs)])
    signs = np.concatenate([np.ones(n_pairs), -np.ones(n_pairs)])
    shape = (n_models, n_pairs)
    signed = sparse.csr_matrix((signs, (rows, cols)), shape=shape)
    unsigned = sparse.csr_matrix((np.abs(signs), (rows, cols)), shape=shape)
    return signed, unsigned


def _batch_objective(
    s: FloatArray, lo: IntArray, hi: IntArray, wins: FloatArray, total: FloatArray, reg: float
) -> tuple[FloatArray, FloatArray]:
    """Row-wise objective and the pair differences ``d = s_lo - s_hi`` it was computed from.

    Uses ``w softplus(-d) + (n - w) softplus(d) = n softplus(d) - w d``.
    """
    d = s[:, lo] - s[:, hi]
    val = (total * np.logaddexp(0.0, d) - wins * d).sum(axis=1)
    return val + 0.5 * reg * np.einsum("ij,ij->i", s, s), d


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
    per row. Each iteration builds the (rows x models x models) Hessians, solves them in a
    batch, backtracks rows whose objective did not decrease enough and re-centres (the exact
    minimiser over a common shift). Rows are processed in chunks to bound memory.
    Returns the (rows x models) log-strengths with zero row means.
    """
    wins = np.atleast_2d(np.asarray(wins, dtype=np.float64))
    total = np.atleast_2d(np.asarray(total, dtype=np.float64))
    n_rows = wins.shape[0]
    s0 = np.broadcast_to(np.asarray(start, dtype=np.float64), (n_rows, n_models))
    out = s0 - s0.mean(axis=1, keepdims=True)
    if n_models < 2 or n_rows == 0:
        return np.zeros((n_rows, n_models))
    signed, unsigned = _incidence(lo, hi, n_models)
    chunk = max(1, _HESSIAN_BUDGET // (8 * n_models * n_models))
    for start_row in range(0, n_rows, chunk):
        rows = slice(start_row, min(n_rows, start_row + chunk))
        out[rows] = _newton_chunk(
            lo, hi, wins[rows], total[rows], reg, out[rows].copy(), signed, unsigned, tol, max_iter
        )
    return out


def _newton_chunk(
    lo: IntArray,
    hi: IntArray,
    wins: FloatArray,
    total: FloatArray,
    reg: float,
    s: FloatArray,
    signed: sparse.csr_matrix,
    unsigned: sparse.csr_matrix,
    tol: float,
    max_iter: int,
) -> FloatArray:
    n_models = s.shape[1]
    diag_idx = np.arange(n_models)
    active = np.arange(s.shape[0])
    f, d_all = _batch_objective(s, lo, hi, wins, total, reg)
    for _ in range(max_iter):
        if active.size == 0:
            break
        sa, wa, ta = s[active], wins[active], total[active]
        sig = expit(d_all)
        r = ta * sig - wa
        grad = np.asarray((signed @ r.T).T) + reg * sa
        h = ta * sig * (1.0 - sig)
        hess = np.zeros((active.size, n_models, n_models))
        hess[:, lo, hi] = -h
        hess[:, hi, lo] = -h
        diag = np.asarray((unsigned @ h.T).T) + reg
        hess[:, diag_idx, diag_idx] = diag
        # The likelihood is shift invariant (null vector 1): adding mu * 1 1^T leaves the
        # Newton step unchanged on the centred subspace but makes the system well conditioned.
        hess += (diag.mean(axis=1) / n_models)[:, None, None]
        step = -np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
        step -= step.mean(axis=1, keepdims=True)
        slope = np.einsum("ij,ij->i", grad, step)
        t = np.ones(active.size)
        fa = f[active]
        new_s = sa + step
        new_f, new_d = _batch_objective(new_s, lo, hi, wa, ta, reg)
        for _ in range(60):
            bad = ~(new_f <= fa + 1e-4 * t * slope + 1e-12 * np.abs(fa))
            if not bad.any():
                break
            t[bad] *= 0.5
            new_s[bad] = sa[bad] + t[bad, None] * step[bad]
            new_f[bad], new_d[bad] = _batch_objective(new_s[bad], lo, hi, wa[bad], ta[bad], reg)
        # Re-centring is the exact minimisation over a common shift: d is unchanged and only
        # the penalty drops.
        sq = np.einsum("ij,ij->i", new_s, new_s)
        new_s -= new_s.mean(axis=1, keepdims=True)
        new_f -= 0.5 * reg * (sq - np.einsum("ij,ij->i", new_s, new_s))
        s[active] = new_s
        f[active] = new_f
        moved = np.abs(t[:, None] * step).max(axis=1) > tol
        active = active[moved]
        d_all = new_d[moved]
    return s


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

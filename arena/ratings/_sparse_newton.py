"""Bradley-Terry fits whose cost is linear in the number of model pairs: sparse Newton-CG.

The Hessian of the Bradley-Terry objective is a weighted graph Laplacian plus ``reg * I``,
so a Newton step never needs it as a matrix: a Hessian-vector product is a gather over the
pair list, a multiply and a scatter back to the models (two sparse products). Each Newton
step is solved by conjugate gradients preconditioned with the Hessian's diagonal, which on
the well-mixed comparison graphs of an arena converges in a few iterations; the
conjugate-gradient work runs in single precision (the gradient, which decides the
optimum's accuracy, stays in double). Many problems sharing one pair list (bootstrap rounds)
are solved at once as the columns of (pairs x rows) arrays, so a round costs a few passes
over its pair counts and no (models x models) matrix is ever formed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from arena.ratings._battle_arrays import FloatArray, IntArray
from arena.ratings._line_search import armijo_steps

#: Bytes of (pairs x rows) working arrays held at once; rows are solved in chunks.
SPARSE_BUDGET = 192 * 2**20
#: Bytes per pair and row of the working arrays alive at once (for the chunk size).
_BYTES_PER_CELL = 48
#: Relative residual (preconditioned norm) at which a Newton step's CG solve stops.
_CG_RTOL = 1e-4
_CG_MAX_ITER = 500
#: Default Newton step (nats) that ends a row: quadratic convergence leaves ~tol**2.
ROUND_TOL = 1e-4
#: Newton steps (nats) above which the next gradient is computed in single precision.
_SINGLE_ABOVE = 0.05

Float32Array = NDArray[np.float32]
#: Either precision (the solver mixes them).
AnyFloat = NDArray[np.floating[Any]]


class PairGraph:
    """Sparse operators of a pair list: pair differences and sums back to the models."""

    def __init__(self, lo: IntArray, hi: IntArray, n_models: int) -> None:
        n_pairs = lo.shape[0]
        pairs = np.arange(n_pairs)
        rows, cols = np.concatenate([lo, hi]), np.concatenate([pairs, pairs])
        signs = np.concatenate([np.ones(n_pairs), -np.ones(n_pairs)])
        shape = (n_models, n_pairs)
        signed = sparse.csc_matrix((signs, (rows, cols)), shape=shape)
        self.lo, self.hi, self.n_models = lo, hi, n_models
        f64, f32 = np.dtype(np.float64), np.dtype(np.float32)
        self._scatter = {f64: signed, f32: signed.astype(np.float32)}
        self._gather = {k: v.T.tocsr() for k, v in self._scatter.items()}
        self._degree = abs(self._scatter[np.dtype(np.float32)])
        half = (0.5 * signed).T.tocsr()
        self._half = {np.dtype(np.float64): half, np.dtype(np.float32): half.astype(np.float32)}

    def diffs(self, s: AnyFloat) -> AnyFloat:
        """(pairs x rows) ``s_lo - s_hi`` for (models x rows) ``s``, in ``s``'s precision."""
        return np.asarray(self._gather[s.dtype] @ s)

    def half_diffs(self, s: AnyFloat) -> AnyFloat:
        """(pairs x rows) ``(s_lo - s_hi) / 2``, in ``s``'s precision."""
        return np.asarray(self._half[s.dtype] @ s)

    def to_models(self, values: AnyFloat) -> AnyFloat:
        """(models x rows) sums of (pairs x rows) values, + at lo and - at hi."""
        return np.asarray(self._scatter[values.dtype] @ values)

    def degrees(self, values: AnyFloat) -> AnyFloat:
        """(models x rows) sums of (pairs x rows) values at both ends of each pair."""
        return np.asarray(self._degree @ values)


def sparse_newton_fit_batch(
    lo: IntArray,
    hi: IntArray,
    wins: FloatArray,
    total: FloatArray,
    n_models: int,
    reg: float,
    start: FloatArray,
    *,
    tol: float = ROUND_TOL,
    max_iter: int = 100,
) -> FloatArray:
    """Fit many BT problems sharing one pair list by damped Newton-CG, without dense Hessians.

    The contract of :func:`~arena.ratings._bradley_terry.newton_fit_batch`: one problem per
    row of (rows x pairs) ``wins`` / ``total``; ``start`` is one warm start (models,) or one
    per row; returns (rows x models) log-strengths with zero row means. A row ends after a
    Newton step of at most ``tol`` nats; Newton's quadratic convergence leaves it about
    ``tol**2`` from the optimum. Time and memory are linear in the number of pairs.
    """
    wins = np.atleast_2d(np.asarray(wins, dtype=np.float64))
    total = np.atleast_2d(np.asarray(total, dtype=np.float64))
    s0 = np.broadcast_to(np.asarray(start, dtype=np.float64), (wins.shape[0], n_models))
    graph = PairGraph(lo, hi, n_models)
    out = fit_columns(graph, wins.T, total.T, reg, s0.T, tol=tol, max_iter=max_iter)
    return np.ascontiguousarray(out.T)


def chunk_columns(n_pairs: int, n_models: int) -> int:
    """Problems (columns) solved together so the working arrays fit :data:`SPARSE_BUDGET`."""
    return max(1, SPARSE_BUDGET // (_BYTES_PER_CELL * max(n_pairs, n_models, 1)))


def fit_columns(
    graph: PairGraph,
    wins: AnyFloat,
    total: AnyFloat,
    reg: float,
    start: FloatArray,
    *,
    tol: float = ROUND_TOL,
    max_iter: int = 100,
) -> FloatArray:
    """:func:`sparse_newton_fit_batch` on column-major data: (pairs x rows) counts and
    (models x rows) or (models,) starts; returns (models x rows) log-strengths."""
    if not reg > 0.0:
        raise ValueError("reg must be > 0 (it makes the Bradley-Terry optimum unique)")
    n_rows = wins.shape[1]
    m, n_pairs = graph.n_models, graph.lo.shape[0]
    if m < 2 or n_rows == 0 or n_pairs == 0:
        return np.zeros((m, n_rows))  # no pairs: only the penalty, minimised at 0
    s0 = np.asarray(start, dtype=np.float64)
    common = s0.ndim == 1
    s0 = np.broadcast_to(s0[:, None] if common else s0, (m, n_rows))
    out: FloatArray = np.array(s0 - s0.mean(axis=0, keepdims=True))
    chunk = chunk_columns(n_pairs, m)
    for first in range(0, n_rows, chunk):
        cols = slice(first, min(n_rows, first + chunk))
        out[:, cols] = _newton_cg(
            graph, wins[:, cols], total[:, cols], reg, out[:, cols].copy(), tol, max_iter, common
        )
    return out


def _newton_cg(
    graph: PairGraph,
    wins: AnyFloat,
    total: AnyFloat,
    reg: float,
    s: FloatArray,
    tol: float,
    max_iter: int,
    common_start: bool,
) -> FloatArray:
    # With t = tanh(d / 2): sigmoid(d) = (1 + t) / 2, so the gradient's pair terms
    # n sigmoid(d) - w are (n / 2) t + (n / 2 - w) and the Hessian weights n (1 - t^2) / 4.
    half_n = 0.5 * np.asarray(total, dtype=np.float64)
    offset = half_n - wins
    quarter_n = (0.5 * half_n).astype(np.float32)
    half_n32, offset32 = half_n.astype(np.float32), offset.astype(np.float32)
    n_rows = s.shape[1]
    active = np.arange(n_rows)
    last_step = np.inf
    for k in range(max_iter):
        if active.size == 0:
            break
        every = active.size == n_rows
        sa = s if every else s[:, active]
        # Far from the optimum (the last step was large) single precision is plenty; a row
        # only ends on a double-precision gradient.
        precise = last_step <= _SINGLE_ABOVE or (k == 0 and common_start)
        t_half: AnyFloat
        if k == 0 and common_start:  # every column starts at the same point: one tanh
            t_first = np.tanh(graph.half_diffs(sa[:, :1]))
            t_half = half_n * t_first
            t32 = t_first.astype(np.float32)
        elif precise:
            t_half = np.tanh(graph.half_diffs(sa))
            t32 = t_half.astype(np.float32)
            t_half *= half_n if every else half_n[:, active]
        else:
            t32 = np.tanh(graph.half_diffs(sa.astype(np.float32)))
            t_half = t32 * (half_n32 if every else half_n32[:, active])
        if precise:
            t_half += offset if every else offset[:, active]
        else:
            t_half += offset32 if every else offset32[:, active]
        grad = graph.to_models(t_half).astype(np.float64) + reg * sa
        del t_half
        h = (quarter_n if every else quarter_n[:, active]) * (1.0 - np.square(t32))
        # Inexact Newton: a loose solve far from the optimum, tighter as the steps shrink.
        step32 = _solve(graph, h, reg, -grad, max(_CG_RTOL, 0.1 ** (k + 2)))
        del h, t32
        step32 -= step32.mean(axis=0, keepdims=True)
        step = step32.astype(np.float64)
        t = np.ones(active.size)
        # No pair difference moves by more than a column's range of model steps.
        wide = np.flatnonzero(step.max(axis=0) - step.min(axis=0) > 0.5)
        if wide.size:
            risky = wide[np.abs(graph.diffs(step32[:, wide])).max(axis=0) > 0.5]
            if risky.size:
                wa = wins if every else wins[:, active]
                ta = total if every else total[:, active]
                t[risky] = _backtrack(
                    graph, sa[:, risky], step[:, risky], grad[:, risky],
                    wa[:, risky], ta[:, risky], reg,
                )  # fmt: skip
        new_s = sa + t * step
        # Re-centring is the exact minimisation over a common shift (differences unchanged).
        new_s -= new_s.mean(axis=0, keepdims=True)
        s[:, active] = new_s
        moved = np.abs(t * step).max(axis=0)
        last_step = float(moved.max())
        if precise:
            active = active[moved > tol]
    return s


def _solve(graph: PairGraph, h: AnyFloat, reg: float, rhs: FloatArray, rtol: float) -> AnyFloat:
    """Solve ``(B diag(h) B^T + reg I) x = rhs`` column-wise by preconditioned CG.

    ``rhs`` sums to zero (a centred gradient) and the Laplacian maps constants to zero, so
    the solve stays orthogonal to the constant vector: the diagonal preconditioner is
    projected the same way, which keeps the penalty's tiny eigenvalue out of the iteration.
    """
    inv_diag = (1.0 / (graph.degrees(h) + np.float32(reg))).astype(np.float32)
    reg32 = np.float32(reg)

    def precondition(r: AnyFloat) -> AnyFloat:
        z = r * inv_diag
        z -= z.mean(axis=0, keepdims=True)
        return z

    def hess(v: AnyFloat) -> AnyFloat:
        u = graph.diffs(v)
        u *= h
        out = graph.to_models(u)
        out += reg32 * v
        return out

    r = rhs.astype(np.float32)
    r -= r.mean(axis=0, keepdims=True)
    x = np.zeros_like(r)
    z = precondition(r)
    p = z.copy()
    rz = np.einsum("ij,ij->j", r, z, dtype=np.float64)
    stop = (rtol**2) * rz
    for _ in range(_CG_MAX_ITER):
        todo = rz > stop
        if not todo.any():
            break
        hp = hess(p)
        php = np.einsum("ij,ij->j", p, hp, dtype=np.float64)
        alpha = np.where(todo, rz / np.where(php > 0.0, php, 1.0), 0.0).astype(np.float32)
        x += alpha * p
        r -= alpha * hp
        z = precondition(r)
        rz_new = np.einsum("ij,ij->j", r, z, dtype=np.float64)
        beta = np.where(todo, rz_new / np.where(rz > 0.0, rz, 1.0), 0.0).astype(np.float32)
        p *= beta
        p += z
        rz = np.where(todo, rz_new, 0.0)
    return x


def _objective(
    s: FloatArray, wins: AnyFloat, total: AnyFloat,
    graph: PairGraph, reg: float,
) -> FloatArray:  # fmt: skip
    """Column-wise objective ``sum n softplus(d) - w d`` plus the penalty."""
    d = graph.diffs(s)
    val = (total * np.logaddexp(0.0, d) - wins * d).sum(axis=0)
    return np.asarray(val + 0.5 * reg * np.einsum("ij,ij->j", s, s), dtype=np.float64)


def _backtrack(
    graph: PairGraph,
    s: FloatArray,
    step: FloatArray,
    grad: FloatArray,
    wins: AnyFloat,
    total: AnyFloat,
    reg: float,
) -> FloatArray:
    """Armijo step lengths for columns whose step may overshoot."""

    def objective(todo: IntArray, t: FloatArray) -> FloatArray:
        trial = s[:, todo] + t * step[:, todo]
        return _objective(trial, wins[:, todo], total[:, todo], graph, reg)

    f0 = _objective(s, wins, total, graph, reg)
    return armijo_steps(f0, np.einsum("ij,ij->j", grad, step), objective)

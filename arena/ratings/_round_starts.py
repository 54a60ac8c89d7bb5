"""Warm starts for bootstrap rounds: one step from the point fit, computed per query.

A bootstrap round differs from the full data only by its query multiplicities. At the point
fit ``s0`` every pair's win probability is known, so a round's gradient there is linear in
its multiplicities: each query type contributes a fixed vector over the models (the pairs
it holds, their battles weighted by the point's win probabilities, less their wins),
precomputed once as a sparse (models x types) matrix ``G``. One Newton step with the point's
Hessian ``H0`` (dense, models x models, inverted once),

    start = s0 - H0^-1 (G mult + reg s0),

is the first-order (infinitesimal jackknife) estimate of the round's optimum. It costs a
sparse product over the query cells and a dense product per round, no pass over the pairs,
and leaves the exact refit (:mod:`arena.ratings._sparse_newton`) about one Newton step less,
with steps small enough to need no line search. The refit, not this start, decides the
result: its convergence test is unchanged.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg, sparse
from scipy.special import expit

from arena.ratings._battle_arrays import FloatArray
from arena.ratings._pair_counts import PairCounts

#: Above this many models the dense inverse (models^2 floats, cubic time to form) costs more
#: than it saves; rounds then start from the point fit itself.
DENSE_MAX_MODELS = 2048


class RoundStarts:
    """First-order starts for rounds given as (rounds x types) multiplicities.

    ``matrix`` is the bootstrap's (2 * pairs x types) query contributions: wins in rows
    ``0..P-1``, battles in rows ``P..2P-1``.
    """

    def __init__(
        self, counts: PairCounts, matrix: sparse.csr_matrix, point: FloatArray, reg: float
    ) -> None:
        m, n_pairs = counts.n_models, counts.lo.shape[0]
        lo, hi = counts.lo, counts.hi
        p_lo = expit(point[lo] - point[hi])
        h = counts.total * p_lo * (1.0 - p_lo)
        hessian = np.zeros((m, m))
        np.add.at(hessian, (lo, hi), -h)
        hessian += hessian.T
        hessian[np.diag_indices(m)] = np.bincount(lo, h, m) + np.bincount(hi, h, m) + reg
        inverse = linalg.inv(hessian, overwrite_a=True, check_finite=False)
        self._inverse = np.ascontiguousarray(inverse, dtype=np.float32)
        # Each query type's gradient at the point: sum over its cells of n p_lo - w,
        # + at lo and - at hi.
        cells = sparse.diags(p_lo) @ matrix[n_pairs:] - matrix[:n_pairs]
        pairs = np.arange(n_pairs)
        signed = sparse.csr_matrix(
            (
                np.concatenate([np.ones(n_pairs), -np.ones(n_pairs)]),
                (np.concatenate([lo, hi]), np.concatenate([pairs, pairs])),
            ),
            shape=(m, n_pairs),
        )
        self._gradient = sparse.csr_matrix(signed @ cells)
        self._prior = reg * point
        self._point = point

    def __call__(self, mult: FloatArray) -> FloatArray:
        """(models x rounds) starts, centred, for (rounds x types) multiplicities."""
        grad = np.asarray(self._gradient @ np.ascontiguousarray(mult.T, dtype=np.float64))
        grad += self._prior[:, None]
        step = (self._inverse @ grad.astype(np.float32)).astype(np.float64)
        start = self._point[:, None] - step
        start -= start.mean(axis=0, keepdims=True)
        return start

"""Adaptive pair choice for ranking many variants: judge where the top-k ranking is least sure.

After each battle the Bradley-Terry log-strengths are refitted (maximum likelihood with a
small L2 prior) with their Fisher-information covariance. A top-k ranking is *separated* when
every variant in the top k beats every variant outside it: the lower confidence bound of
their strength difference is above 0, Bonferroni-corrected over the ``k (n - k)`` differences.
Until then the next pair is the least separated (top-k member, outsider) pair (the LUCB rule
of best-arm identification, in duels), the one with fewer battles on a tie.

Why the ratings stay valid: the Bradley-Terry likelihood of the observed outcomes factorises
over battles given the pairs shown, and choosing the next pair from past outcomes only
multiplies it by terms free of the strengths, so the maximum-likelihood fit is the same as if
the pairs had been fixed in advance. The bootstrap resamples the battles actually observed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtri

#: The L2 prior on log-strengths (fixes the free shift of Bradley-Terry strengths).
REG = 0.01
#: Virtual ties added between every two variants: a variant that wins every battle keeps a
#: finite strength and a usable standard error (plain Wald intervals widen without bound
#: under perfect separation), and the fit leans towards "equal" when data are few.
PRIOR_TIES = 1.0


@dataclass
class AdaptiveState:
    """Wins and battle counts between ``variants`` variants (a tie is half a win each)."""

    variants: int
    wins: NDArray[np.float64] = field(init=False)
    counts: NDArray[np.float64] = field(init=False)
    _warm: NDArray[np.float64] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.variants < 2:
            raise ValueError(f"need at least two variants, got {self.variants}")
        self.wins = np.zeros((self.variants, self.variants))
        self.counts = np.zeros((self.variants, self.variants))

    def add(self, i: int, j: int, score_i: float) -> None:
        """One battle of ``i`` against ``j``: ``score_i`` 1 (i won), 0.5 (tie) or 0."""
        if i == j or not 0 <= score_i <= 1:
            raise ValueError("a battle needs two different variants and a score in [0, 1]")
        self.wins[i, j] += score_i
        self.wins[j, i] += 1 - score_i
        self.counts[i, j] += 1
        self.counts[j, i] += 1

    @property
    def battles(self) -> int:
        """Battles added so far."""
        return int(self.counts.sum() // 2)

    def fit(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(log-strengths, their covariance) by Newton's method on the penalised likelihood
        (with :data:`PRIOR_TIES` virtual ties between every two variants)."""
        prior = PRIOR_TIES * (1 - np.eye(self.variants))
        wins, counts = self.wins + prior / 2, self.counts + prior
        theta = np.zeros(self.variants) if self._warm is None else self._warm.copy()
        hessian = np.eye(self.variants) * REG
        for _ in range(100):
            p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
            gradient = (wins - counts * p).sum(axis=1) - REG * theta
            weight = counts * p * (1 - p)
            hessian = np.diag(weight.sum(axis=1)) - weight + REG * np.eye(self.variants)
            step = np.linalg.solve(hessian, gradient)
            theta += step
            if np.max(np.abs(step)) < 1e-9:
                break
        self._warm = theta.copy()  # the next fit starts here: a few Newton steps, not many
        return theta, np.asarray(np.linalg.inv(hessian), dtype=float)


def _gaps(
    state: AdaptiveState, k: int, alpha: float
) -> tuple[list[tuple[float, int, int]], NDArray[np.float64]]:
    """(lower bound of theta_i - theta_j, i, j) for each top-k member i and outsider j."""
    if not 1 <= k < state.variants:
        raise ValueError(f"k must be between 1 and {state.variants - 1}, got {k}")
    theta, cov = state.fit()
    order = np.argsort(-theta, kind="stable")
    top, rest = order[:k], order[k:]
    z = float(ndtri(1 - alpha / (2 * k * len(rest))))
    gaps = []
    for i in top:
        for j in rest:
            sd = float(np.sqrt(max(cov[i, i] + cov[j, j] - 2 * cov[i, j], 0.0)))
            gaps.append((float(theta[i] - theta[j] - z * sd), int(i), int(j)))
    return gaps, theta


def ranks_separated(state: AdaptiveState, k: int = 1, alpha: float = 0.05) -> bool:
    """True when the top ``k`` beat every other variant at confidence ``1 - alpha``."""
    gaps, _ = _gaps(state, k, alpha)
    return min(g for g, _, _ in gaps) > 0


def next_pair(
    state: AdaptiveState,
    k: int = 1,
    alpha: float = 0.05,
    exclude: set[tuple[int, int]] | None = None,
) -> tuple[int, int] | None:
    """The pair to judge next (module docstring), or None when the top k are separated or
    every unseparated pair is in ``exclude`` (pairs as ``(low index, high index)``)."""
    gaps, _ = _gaps(state, k, alpha)
    skip = exclude or set()
    open_ = [g for g in gaps if g[0] <= 0 and (min(g[1:]), max(g[1:])) not in skip]
    if not open_:
        return None
    _, i, j = min(open_, key=lambda g: (g[0], state.counts[g[1], g[2]]))
    return i, j

"""Critical cases by evidence: when a critical case the candidate fails stops the comparison.

One stochastic failure is not evidence of a regression. Each critical case is **tested once**,
when its repeats are in, at its own share ``a`` of the critical budget, in two halves:

- **the deterministic pattern**: the baseline passes every one of its ``nb`` repeats and the
  candidate fails every one of its ``nc``. Between equal agents that pass with any probability
  ``p`` this pattern has chance ``p^nb (1 - p)^nc``, at most
  ``(nb / (nb + nc))^nb (nc / (nb + nc))^nc`` (``4^-n`` with ``n`` repeats each), so it
  blocks at once when that bound is within ``a / 2``. With ``--strict-critical`` the user
  declares the agents deterministic: the pattern then blocks at any number of repeats, one
  included (no test: the guarantee below assumes the declaration is true).
- **a drop in the pass rate**: the one-sided exact test (Fisher's, hypergeometric lower tail)
  at ``a / 2``.

By the union bound a case blocks equal agents with probability at most ``a``. The critical
budget is ``alpha / 2``, spent case by case: a case tested while ``u`` critical cases (itself
included) are still untested gets ``(alpha / 2 - spent) / u``, so the shares never add up to
more than ``alpha / 2`` however the dataset grows (with a fixed selection of ``K`` critical
cases each gets ``alpha / (2K)``, Bonferroni). The interval's own "worse" side errs with at
most ``alpha / 2``, so "worse" between equal variants has probability at most ``alpha`` in all.

Pure numpy/scipy and batched, so a simulation checks it on thousands of runs at once.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def drop_p_value(
    base_passes: ArrayLike, base_n: ArrayLike, cand_passes: ArrayLike, cand_n: ArrayLike
) -> NDArray[np.float64]:
    """One-sided exact p-value that the candidate's pass rate is below the baseline's."""
    kb, nb = np.asarray(base_passes), np.asarray(base_n)
    kc, nc = np.asarray(cand_passes), np.asarray(cand_n)
    from scipy.stats import hypergeom  # scipy.stats costs a second at import: only when used

    return np.asarray(hypergeom.cdf(kc, nb + nc, kb + kc, nc), dtype=float)


def all_or_none(
    base_passes: ArrayLike, base_n: ArrayLike, cand_passes: ArrayLike, cand_n: ArrayLike
) -> NDArray[np.bool_]:
    """The baseline passes every one of its repeats and the candidate fails every one."""
    kb, nb = np.asarray(base_passes), np.asarray(base_n)
    kc = np.asarray(cand_passes)
    return np.asarray((nb >= 1) & (kb == nb) & (kc == 0) & (np.asarray(cand_n) >= 1))


def pattern_bound(base_n: ArrayLike, cand_n: ArrayLike) -> NDArray[np.float64]:
    """The largest chance of the all-or-none pattern between equal agents (over every pass
    probability): ``(nb / n)^nb (nc / n)^nc`` with ``n = nb + nc``."""
    nb, nc = np.asarray(base_n, dtype=float), np.asarray(cand_n, dtype=float)
    n = np.maximum(nb + nc, 1.0)
    return np.asarray((nb / n) ** nb * (nc / n) ** nc)


def deterministic_failure(
    base_passes: ArrayLike,
    base_n: ArrayLike,
    cand_passes: ArrayLike,
    cand_n: ArrayLike,
    *,
    alpha_case: float | ArrayLike,
    strict: bool = False,
) -> NDArray[np.bool_]:
    """The all-or-none pattern, when it is evidence: rare enough between equal agents
    (within ``alpha_case / 2``), or at any repeats in strict mode."""
    pattern = all_or_none(base_passes, base_n, cand_passes, cand_n)
    rare = pattern_bound(base_n, cand_n) <= np.asarray(alpha_case) / 2
    return np.asarray(pattern & (rare | strict))


def critical_blocks(
    base_passes: ArrayLike,
    base_n: ArrayLike,
    cand_passes: ArrayLike,
    cand_n: ArrayLike,
    *,
    alpha_case: float | ArrayLike,
    strict: bool = False,
) -> NDArray[np.bool_]:
    """Which critical cases block: a deterministic failure, or a significant drop at half of
    ``alpha_case`` (arrays broadcast: one entry per case, or per simulated run and case)."""
    certain = deterministic_failure(
        base_passes, base_n, cand_passes, cand_n, alpha_case=alpha_case, strict=strict
    )
    p_value = drop_p_value(base_passes, base_n, cand_passes, cand_n)
    return np.asarray(certain | (p_value <= np.asarray(alpha_case) / 2))


def case_share(alpha: float, spent: float, untested: int) -> float:
    """The alpha one more critical case is tested at (module docstring)."""
    return max(alpha / 2 - spent, 0.0) / max(untested, 1)

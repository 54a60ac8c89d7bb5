"""Critical cases by evidence: when a critical case the candidate fails stops the comparison.

One stochastic failure is not evidence of a regression. A critical case blocks ("worse") at
once only when the failure is **deterministic**: the baseline passes the case in every one of
its repeats and the candidate fails every one of its own (with at least two repeats each), or
with a single repeat when the user asked for strict mode (``--strict-critical``). Otherwise
the case is **tested once**, when its repeats are in, by the one-sided exact test of a drop in
its pass rate (Fisher's, hypergeometric lower tail) at its own share of the critical budget.

The critical budget is ``alpha / 2``, spent case by case: a case tested while ``u`` critical
cases (itself included) are still untested gets ``(alpha / 2 - spent) / u``, so the shares
never add up to more than ``alpha / 2`` however the dataset grows (with a fixed selection of
``K`` critical cases each gets ``alpha / (2K)``, Bonferroni). The interval's own "worse" side
errs with at most ``alpha / 2``, so "worse" between equal variants has probability at most
``alpha`` in all. The deterministic block is no test: it assumes agents whose repeats agree
are deterministic (docs/sequential.md gives what it costs with stochastic agents).

Pure numpy/scipy and batched, so a simulation checks it on thousands of runs at once.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.stats import hypergeom


def drop_p_value(
    base_passes: ArrayLike, base_n: ArrayLike, cand_passes: ArrayLike, cand_n: ArrayLike
) -> NDArray[np.float64]:
    """One-sided exact p-value that the candidate's pass rate is below the baseline's."""
    kb, nb = np.asarray(base_passes), np.asarray(base_n)
    kc, nc = np.asarray(cand_passes), np.asarray(cand_n)
    return np.asarray(hypergeom.cdf(kc, nb + nc, kb + kc, nc), dtype=float)


def deterministic_failure(
    base_passes: ArrayLike,
    base_n: ArrayLike,
    cand_passes: ArrayLike,
    cand_n: ArrayLike,
    *,
    strict: bool = False,
) -> NDArray[np.bool_]:
    """The baseline passes every repeat and the candidate fails every one (two or more
    repeats each; one each only in strict mode)."""
    kb, nb = np.asarray(base_passes), np.asarray(base_n)
    kc, nc = np.asarray(cand_passes), np.asarray(cand_n)
    enough = ((nb >= 2) & (nc >= 2)) | (strict & (nb >= 1) & (nc >= 1))
    return np.asarray(enough & (kb == nb) & (kc == 0) & (nb >= 1))


def critical_blocks(
    base_passes: ArrayLike,
    base_n: ArrayLike,
    cand_passes: ArrayLike,
    cand_n: ArrayLike,
    *,
    alpha_case: float | ArrayLike,
    strict: bool = False,
) -> NDArray[np.bool_]:
    """Which critical cases block: deterministic failures, or a significant drop at
    ``alpha_case`` (arrays broadcast: one entry per case, or per simulated run and case)."""
    certain = deterministic_failure(base_passes, base_n, cand_passes, cand_n, strict=strict)
    tested = drop_p_value(base_passes, base_n, cand_passes, cand_n) < np.asarray(alpha_case)
    return np.asarray(certain | tested)


def case_share(alpha: float, spent: float, untested: int) -> float:
    """The alpha one more critical case is tested at (module docstring)."""
    return max(alpha / 2 - spent, 0.0) / max(untested, 1)

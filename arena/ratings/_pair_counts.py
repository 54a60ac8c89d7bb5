"""Battles collapsed to unique unordered model pairs: what Bradley-Terry and its bootstrap fit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arena.ratings._battle_arrays import Battles, FloatArray, IntArray


@dataclass(frozen=True, eq=False)
class PairCounts:
    """Battles collapsed to unique unordered pairs ``lo < hi``.

    ``wins_lo[p]`` is the (weighted) score of model ``lo[p]`` against ``hi[p]`` with a tie
    counting half a win each way; ``total[p]`` is the (weighted) number of battles.
    ``pair_of_battle`` maps each battle to its pair and ``score_lo`` is the battle's
    weighted contribution to ``wins_lo``.
    """

    lo: IntArray
    hi: IntArray
    wins_lo: FloatArray
    total: FloatArray
    n_models: int
    pair_of_battle: IntArray
    score_lo: FloatArray


def unique_inverse(keys: IntArray) -> tuple[IntArray, IntArray]:
    """``np.unique(keys, return_inverse=True)`` for non-negative integer keys.

    Counts instead of sorting when the keys are small (a linear pass), which is what battle
    logs give: pair keys below models squared, query indices below the number of battles.
    """
    keys = np.asarray(keys, dtype=np.int64).reshape(-1)
    if keys.size == 0:
        return keys.copy(), keys.copy()
    top = int(keys.max()) + 1
    if int(keys.min()) < 0 or top > max(4 * keys.size, 1 << 16):
        uniq, inverse = np.unique(keys, return_inverse=True)
        return uniq.astype(np.int64), inverse.reshape(-1).astype(np.int64)
    present = np.bincount(keys, minlength=top) > 0
    label = np.cumsum(present) - 1
    return np.flatnonzero(present).astype(np.int64), label[keys].astype(np.int64)


def aggregate_pairs(battles: Battles) -> PairCounts:
    """Collapse battles into unique unordered model pairs with weighted win counts."""
    a, b = battles.model_a, battles.model_b
    m = battles.n_models
    lo = np.minimum(a, b)
    hi = np.maximum(a, b)
    lo_is_a = a < b
    score_lo = battles.weight * np.where(lo_is_a, battles.outcome, 1.0 - battles.outcome)
    keys, pair_of_battle = unique_inverse(lo * m + hi)
    n_pairs = keys.shape[0]
    wins = np.bincount(pair_of_battle, weights=score_lo, minlength=n_pairs)
    total = np.bincount(pair_of_battle, weights=battles.weight, minlength=n_pairs)
    return PairCounts(
        lo=(keys // m).astype(np.int64),
        hi=(keys % m).astype(np.int64),
        wins_lo=wins.astype(np.float64),
        total=total.astype(np.float64),
        n_models=m,
        pair_of_battle=pair_of_battle,
        score_lo=score_lo,
    )

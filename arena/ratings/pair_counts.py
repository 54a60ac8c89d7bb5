"""Battles collapsed to unique unordered model pairs: what Bradley-Terry and its bootstrap fit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arena.ratings.battle_arrays import Battles, FloatArray, IntArray


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


def aggregate_pairs(battles: Battles) -> PairCounts:
    """Collapse battles into unique unordered model pairs with weighted win counts."""
    a, b = battles.model_a, battles.model_b
    m = battles.n_models
    lo = np.minimum(a, b)
    hi = np.maximum(a, b)
    lo_is_a = a < b
    score_lo = battles.weight * np.where(lo_is_a, battles.outcome, 1.0 - battles.outcome)
    keys, pair_of_battle = np.unique(lo * m + hi, return_inverse=True)
    pair_of_battle = pair_of_battle.reshape(-1).astype(np.int64)
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

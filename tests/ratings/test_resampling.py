"""Query resampling by types within a byte budget: same distribution, bounded memory."""

from __future__ import annotations

import numpy as np
import pytest

from arena.ratings import (
    RESAMPLE_BUDGET,
    Battles,
    UnitTypes,
    bootstrap_bradley_terry,
    newton_fit_batch,
    query_multiplicities,
    type_multiplicities,
)
from arena.ratings._bradley_terry import DEFAULT_REG, log_strength_to_elo
from arena.ratings._pair_counts import unique_inverse
from arena.ratings._resampling import rows_per_batch

pytestmark = pytest.mark.unit


def test_unique_inverse_matches_numpy_on_both_paths() -> None:
    rng = np.random.default_rng(0)
    for keys in (rng.integers(0, 50, 1000), rng.integers(0, 10**12, 1000), np.array([7])):
        uniq, inverse = unique_inverse(keys)
        ref_uniq, ref_inverse = np.unique(keys, return_inverse=True)
        np.testing.assert_array_equal(uniq, ref_uniq)
        np.testing.assert_array_equal(inverse, ref_inverse.reshape(-1))


def test_batches_fit_the_budget_whatever_the_number_of_queries() -> None:
    for width in (10, 20_000, 5_000_000, 50_000_000):
        rows = rows_per_batch(width, 1000)
        assert 1 <= rows <= 1000
        assert rows == 1 or rows * width * 16 <= RESAMPLE_BUDGET
    assert rows_per_batch(10, 7) == 7


def test_identity_types_draw_the_query_stream() -> None:
    ident = np.concatenate(list(type_multiplicities(UnitTypes.identity(30), 50, rng(3))))
    plain = np.concatenate(list(query_multiplicities(30, 50, rng(3), chunk=50)))
    np.testing.assert_array_equal(ident, plain)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


@pytest.mark.parametrize("n_units", [600, 90])  # the multinomial path, then unit draws
def test_type_counts_follow_the_multinomial(n_units: int) -> None:
    unit_type = np.arange(n_units) % 3
    unit_type[: n_units // 2] = 0  # unequal types: half the units are type 0
    types = UnitTypes(unit_type, np.bincount(unit_type))
    if n_units == 90:
        types = UnitTypes(np.arange(90) % 30, np.full(30, 3))  # 30 types of 90 units
    counts = np.concatenate(list(type_multiplicities(types, 4000, rng(1))))
    assert counts.shape == (4000, types.n_types)
    assert np.all(counts.sum(axis=1) == n_units)
    p = types.counts / n_units
    np.testing.assert_allclose(counts.mean(axis=0), n_units * p, rtol=0.03)
    np.testing.assert_allclose(counts.var(axis=0), n_units * p * (1 - p), rtol=0.12)


def test_a_log_without_question_ids_is_resampled_by_battle() -> None:
    # every battle its own query: grouped into (pair, outcome) types, drawn as a multinomial;
    # the intervals match a brute-force bootstrap that resamples battles one by one
    r = rng(4)
    m, n = 4, 3000
    strengths = np.array([0.0, 0.3, 0.6, -0.4])
    a = r.integers(0, m, n)
    b = (a + r.integers(1, m, n)) % m
    outcome = (r.random(n) < 1 / (1 + np.exp(strengths[b] - strengths[a]))).astype(float)
    outcome[r.random(n) < 0.2] = 0.5
    battles = Battles(a, b, outcome, np.arange(n), tuple("wxyz"))
    fit = bootstrap_bradley_terry(battles, rounds=600, seed=2)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    score_lo = np.where(a < b, outcome, 1 - outcome)
    pairs = lo * m + hi
    keys = np.unique(pairs)
    draws = r.integers(0, n, (600, n))
    wins = np.stack(
        [np.bincount(np.searchsorted(keys, pairs[d]), score_lo[d], keys.size) for d in draws]
    )
    total = np.stack([np.bincount(np.searchsorted(keys, pairs[d]), None, keys.size) for d in draws])
    brute = log_strength_to_elo(
        newton_fit_batch(
            keys // m, keys % m, wins, total.astype(float), m, DEFAULT_REG, np.zeros(m)
        )
    )
    np.testing.assert_allclose(fit.samples.std(axis=0), brute.std(axis=0), rtol=0.15)
    np.testing.assert_allclose(fit.samples.mean(axis=0), brute.mean(axis=0), atol=2.0)

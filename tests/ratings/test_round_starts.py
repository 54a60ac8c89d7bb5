"""Bootstrap rounds warm-started per query (arena.ratings._round_starts) against the old path:
the same bootstrap draws give the same ratings, and the start is the first-order step it
claims to be, on arenas with many models and few queries."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy.special import expit

from arena.ratings import (
    DEFAULT_REG,
    Battles,
    PairCounts,
    RatingFit,
    aggregate_pairs,
    bootstrap_bradley_terry,
)
from arena.ratings import _bootstrap as bootstrap_module
from arena.ratings._bootstrap import _query_pair_matrix
from arena.ratings._resampling import type_multiplicities
from arena.ratings._round_starts import RoundStarts
from arena.ratings._sparse_newton import PairGraph, fit_columns

pytestmark = pytest.mark.unit

ELO_PER_NAT = 400.0 / np.log(10.0)


def few_query_arena(
    m: int, n: int, n_queries: int, seed: int, *, weighted: bool = False
) -> Battles:
    """``n`` battles among ``m`` models on only ``n_queries`` queries (10% ties)."""
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0.0, 1.0, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    outcome = (rng.random(n) < expit(strengths[a] - strengths[b])).astype(float)
    outcome[rng.random(n) < 0.1] = 0.5
    query = rng.integers(0, n_queries, n)
    weight = rng.choice([0.5, 1.0, 2.0], n) if weighted else np.ones(n)
    names = tuple(f"v{i:04d}" for i in range(m))
    return Battles(a, b, outcome, query, names, weight=weight)


def tight_point(graph: PairGraph, counts: PairCounts) -> np.ndarray:
    """The point fit on all battles, converged far below the rounds' tolerance."""
    pair = (counts.wins_lo[:, None], counts.total[:, None])
    return fit_columns(graph, *pair, DEFAULT_REG, np.zeros(graph.n_models), tol=1e-10)[:, 0]


def old_path(battles: Battles, monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> RatingFit:
    """The bootstrap with every round started from the point fit (before round starts)."""
    with monkeypatch.context() as patch:
        patch.setattr(bootstrap_module, "DENSE_MAX_MODELS", 0)
        return bootstrap_bradley_terry(battles, **kwargs)


@pytest.mark.parametrize(
    ("m", "n", "n_queries", "weighted"),
    [(120, 6_000, 20, False), (150, 9_000, 300, True), (90, 2_000, 2_000, False)],
)
def test_same_draws_give_the_same_ratings_as_the_old_path(
    monkeypatch: pytest.MonkeyPatch, m: int, n: int, n_queries: int, weighted: bool
) -> None:
    battles = few_query_arena(m, n, n_queries, seed=m, weighted=weighted)
    new = bootstrap_bradley_terry(battles, rounds=60, seed=3)
    old = old_path(battles, monkeypatch, rounds=60, seed=3)
    assert float(np.abs(new.samples - old.samples).max()) < 1e-6
    np.testing.assert_array_equal(new.rating, old.rating)
    diffs = [np.abs(new.ci_low - old.ci_low).max(), np.abs(new.ci_high - old.ci_high).max()]
    assert max(diffs) < 1e-6
    spread = new.samples.std(axis=0)
    assert float(spread.min()) > 1.0  # the rounds really differ from the point fit


def test_anchored_ratings_match_the_old_path(monkeypatch: pytest.MonkeyPatch) -> None:
    battles = few_query_arena(100, 5_000, 40, seed=7)
    new = bootstrap_bradley_terry(battles, rounds=30, seed=1, anchor="v0003")
    old = old_path(battles, monkeypatch, rounds=30, seed=1, anchor="v0003")
    assert float(np.abs(new.samples - old.samples).max()) < 1e-6


def test_rounds_equal_a_tightly_converged_refit_of_the_same_counts() -> None:
    battles = few_query_arena(130, 8_000, 50, seed=11)
    counts = aggregate_pairs(battles)
    m, n_pairs = battles.n_models, counts.lo.size
    graph = PairGraph(counts.lo, counts.hi, m)
    point = tight_point(graph, counts)
    types, matrix = _query_pair_matrix(battles, counts)
    mult = next(type_multiplicities(types, 8, np.random.default_rng(5)))
    both = np.asarray(matrix @ mult.T)
    starts = RoundStarts(counts, matrix, point, DEFAULT_REG)(mult)
    ours = fit_columns(graph, both[:n_pairs], both[n_pairs:], DEFAULT_REG, starts)
    tight = fit_columns(graph, both[:n_pairs], both[n_pairs:], DEFAULT_REG, point, tol=1e-13)
    assert float(np.abs(ours - tight).max()) * ELO_PER_NAT < 1e-6


def test_start_is_one_point_hessian_step_on_the_rounds_pair_counts() -> None:
    battles = few_query_arena(80, 3_000, 25, seed=2, weighted=True)
    counts = aggregate_pairs(battles)
    m, n_pairs = battles.n_models, counts.lo.size
    lo, hi, reg = counts.lo, counts.hi, DEFAULT_REG
    graph = PairGraph(lo, hi, m)
    point = tight_point(graph, counts)
    types, matrix = _query_pair_matrix(battles, counts)
    mult = next(type_multiplicities(types, 4, np.random.default_rng(9)))
    got = RoundStarts(counts, matrix, point, reg)(mult)
    p = expit(point[lo] - point[hi])
    hessian = reg * np.eye(m)
    for i, j, h in zip(lo, hi, counts.total * p * (1.0 - p), strict=True):
        hessian[[i, j], [i, j]] += h
        hessian[i, j] -= h
        hessian[j, i] -= h
    for r in range(mult.shape[0]):  # the round's gradient at the point, from its pair counts
        wins, total = np.asarray(matrix @ mult[r])[:n_pairs], np.asarray(matrix @ mult[r])[n_pairs:]
        resid = total * p - wins
        grad = np.bincount(lo, resid, m) - np.bincount(hi, resid, m) + reg * point
        want = point - np.linalg.solve(hessian, grad)
        want -= want.mean()
        assert float(np.abs(got[:, r] - want).max()) < 1e-4  # single-precision inverse
        assert float(np.abs(want - point).max()) > 0.05  # a real step away from the point


def test_full_data_multiplicities_start_at_the_point() -> None:
    battles = few_query_arena(70, 2_500, 15, seed=4)
    counts = aggregate_pairs(battles)
    m = battles.n_models
    graph = PairGraph(counts.lo, counts.hi, m)
    point = tight_point(graph, counts)
    types, matrix = _query_pair_matrix(battles, counts)
    start = RoundStarts(counts, matrix, point, DEFAULT_REG)(types.counts[None, :].astype(float))
    assert float(np.abs(start[:, 0] - point).max()) < 1e-5

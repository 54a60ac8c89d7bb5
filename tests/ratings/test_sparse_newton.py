"""Sparse Newton-CG Bradley-Terry (arena.ratings._sparse_newton) against the dense batched
Newton solver, choix, and known strengths, on sparse comparison graphs with many models."""

from __future__ import annotations

import importlib

import choix
import numpy as np
import pytest

from arena.ratings import (
    DEFAULT_REG,
    Battles,
    aggregate_pairs,
    bootstrap_bradley_terry,
    bradley_terry,
    newton_fit_batch,
    sparse_newton_fit_batch,
)
from arena.ratings._sparse_newton import PairGraph, fit_columns

pytestmark = pytest.mark.unit

ELO_PER_NAT = 400.0 / np.log(10.0)


def sparse_arena(
    m: int, n: int, seed: int, *, tie_prob: float = 0.1, spread: float = 1.0
) -> tuple[Battles, np.ndarray]:
    """``n`` battles among ``m`` models with normal(0, spread) strengths: a sparse graph."""
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0.0, spread, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    p = 1.0 / (1.0 + np.exp(-(strengths[a] - strengths[b])))
    outcome = (rng.random(n) < p).astype(float)
    outcome[rng.random(n) < tie_prob] = 0.5
    query = rng.integers(0, max(1, n // 3), n)
    names = tuple(f"m{i:04d}" for i in range(m))
    return Battles(a, b, outcome, query, names), strengths


def test_matches_dense_newton_on_many_rows_of_a_sparse_graph() -> None:
    battles, _ = sparse_arena(70, 500, seed=1)
    counts = aggregate_pairs(battles)
    assert counts.lo.size < 0.25 * 70 * 69 / 2  # sparse: most pairs never met
    rng = np.random.default_rng(2)
    weights = rng.poisson(1.0, (3, counts.lo.size)).astype(float)  # resampled-like rows
    wins, total = weights * counts.wins_lo / counts.total, weights
    m = battles.n_models
    starts = rng.normal(0.0, 0.5, (3, m))  # a different start per row
    dense = newton_fit_batch(counts.lo, counts.hi, wins, total, m, DEFAULT_REG, starts)
    ours = sparse_newton_fit_batch(counts.lo, counts.hi, wins, total, m, DEFAULT_REG, starts)
    assert ours.shape == (3, m)
    np.testing.assert_allclose(ours.mean(axis=1), 0.0, atol=1e-12)
    assert float(np.abs(ours - dense).max()) * ELO_PER_NAT < 1e-5


def test_far_start_backtracks_to_the_same_optimum() -> None:
    # strong, spread-out strengths and a start far from them: the first steps overshoot
    battles, strengths = sparse_arena(60, 3000, seed=3, spread=3.0)
    counts = aggregate_pairs(battles)
    m = battles.n_models
    pair = (counts.lo, counts.hi, counts.wins_lo[None], counts.total[None], m, 1e-3)
    dense = newton_fit_batch(*pair, np.zeros(m))
    for start in (np.zeros(m), -10.0 * strengths):
        ours = sparse_newton_fit_batch(*pair, start, tol=1e-9)
        assert float(np.abs(ours - dense).max()) * ELO_PER_NAT < 1e-6


def test_matches_choix_on_a_sparse_graph_with_many_models() -> None:
    battles, _ = sparse_arena(200, 2500, seed=4, tie_prob=0.0)
    reg = 0.05
    data = [
        (int(a), int(b)) if o == 1.0 else (int(b), int(a))
        for a, b, o in zip(battles.model_a, battles.model_b, battles.outcome, strict=True)
    ]
    # choix penalises alpha * ||theta||^2; ours is reg / 2 * ||s||^2.
    ref = choix.opt_pairwise(200, data, alpha=reg / 2, tol=1e-12)
    counts = aggregate_pairs(battles)
    ours = fit_columns(
        PairGraph(counts.lo, counts.hi, 200),
        counts.wins_lo[:, None],
        counts.total[:, None],
        reg,
        np.zeros(200),
        tol=1e-9,
    )[:, 0]
    assert float(np.abs(ours - (ref - ref.mean())).max()) * ELO_PER_NAT < 1e-3


@pytest.mark.system
def test_recovers_known_strengths_and_intervals_cover_them() -> None:
    # no ties: random ties would pull the Bradley-Terry parameters below the planted ones
    battles, strengths = sparse_arena(300, 45_000, seed=5, tie_prob=0.0)
    fit = bootstrap_bradley_terry(battles, rounds=100, seed=6, solver="sparse")
    truth = ELO_PER_NAT * (strengths - strengths.mean()) + 1000.0
    # the errors are as large as the bootstrap says (standardised mean square near 1)
    z2 = float(np.mean(((fit.rating - truth) / fit.samples.std(axis=0, ddof=1)) ** 2))
    assert 0.75 < z2 < 1.35, z2
    assert float(np.corrcoef(fit.rating, truth)[0, 1]) > 0.98
    covered = float(np.mean((fit.ci_low <= truth) & (truth <= fit.ci_high)))
    assert 0.9 <= covered <= 0.99, covered


def test_sparse_bootstrap_equals_the_dense_one_round_for_round() -> None:
    battles, _ = sparse_arena(40, 4000, seed=7)
    dense = bootstrap_bradley_terry(battles, rounds=40, seed=8, solver="newton")
    ours = bootstrap_bradley_terry(battles, rounds=40, seed=8, solver="sparse")
    np.testing.assert_allclose(ours.rating, dense.rating, atol=1e-7)
    np.testing.assert_allclose(ours.samples, dense.samples, atol=1e-4)
    np.testing.assert_allclose(ours.ci_low, dense.ci_low, atol=1e-4)
    anchored = bootstrap_bradley_terry(battles, rounds=10, seed=0, solver="sparse", anchor="m0003")
    assert anchored.ci_low[3] == anchored.ci_high[3] == 1000.0


def test_undefeated_winless_absent_and_disconnected_models_as_the_dense_solver() -> None:
    battles = Battles(
        np.array([0, 0, 1, 2, 2, 3, 4, 4, 5]),
        np.array([1, 1, 0, 3, 3, 2, 5, 5, 6]),
        np.array([1.0, 1.0, 1.0, 1.0, 0.0, 0.5, 1.0, 1.0, 1.0]),
        np.arange(9),
        tuple("abcdefgh"),  # h never plays; e never loses, g never wins
    )
    counts = aggregate_pairs(battles)
    m = battles.n_models
    for reg in (DEFAULT_REG, 1e-6):
        pair = (counts.lo, counts.hi, counts.wins_lo[None], counts.total[None], m, reg)
        dense = newton_fit_batch(*pair, np.zeros(m))
        ours = sparse_newton_fit_batch(*pair, np.zeros(m), tol=1e-9)
        assert np.all(np.isfinite(ours))
        assert float(np.abs(ours - dense).max()) * ELO_PER_NAT < 1e-4
        assert ours[0, 7] == pytest.approx(0.0, abs=1e-9)  # absent: the prior's mean
    boot = bootstrap_bradley_terry(battles, rounds=30, seed=0, solver="sparse")
    assert np.all(np.isfinite(boot.samples))


def test_point_fit_above_the_dense_limit_is_the_same_optimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    battles, _ = sparse_arena(80, 3000, seed=9)
    dense = bradley_terry(battles)  # L-BFGS-B and a dense Newton polish
    bt_module = importlib.import_module("arena.ratings._bradley_terry")
    monkeypatch.setattr(bt_module, "_POLISH_MAX_MODELS", 20)  # as if 80 models were many
    assert float(np.abs(bradley_terry(battles) - dense).max()) < 1e-6


def test_no_pairs_and_validation() -> None:
    empty = np.zeros(0, dtype=np.int64)
    out = sparse_newton_fit_batch(
        empty, empty, np.zeros((3, 0)), np.zeros((3, 0)), 4, 0.1, np.zeros(4)
    )
    np.testing.assert_array_equal(out, np.zeros((3, 4)))
    with pytest.raises(ValueError, match="reg"):
        sparse_newton_fit_batch(
            np.array([0]), np.array([1]), np.ones((1, 1)), np.ones((1, 1)), 2, 0.0, np.zeros(2)
        )

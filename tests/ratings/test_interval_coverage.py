"""Small arenas: do the 95% intervals cover, and is the compare verdict's "better" honest?

Arenas are simulated from known strengths with query effects (each query shifts every model's
strength by its own normal draw) and ties, every pair judged in both seat orders on each
query. The target is the population rating (the Bradley-Terry fit to the expected outcomes of
endless queries, which query effects and ties pull towards the mean). All arenas are
bootstrapped at once with the library's pieces (its query multiplicities, batched Newton and
interval); one arena is checked against ``bootstrap_bradley_terry`` itself.
"""

from __future__ import annotations

import numpy as np
import pytest

from arena.ratings import (
    DEFAULT_REG,
    Battles,
    bootstrap_bradley_terry,
    bootstrap_interval,
    bootstrap_win_rate,
    log_strength_to_elo,
    newton_fit_batch,
    query_multiplicities,
)

pytestmark = pytest.mark.unit

STRENGTHS = np.array([-0.45, -0.15, 0.15, 0.45])
M = STRENGTHS.size
LO, HI = np.triu_indices(M, 1)
QUERY_SD, TIE_PROB, ROUNDS = 0.8, 0.25, 300


def battle_scores(
    shape: tuple[int, ...], logit: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Per battle: 1 win, 1/2 tie, 0 loss (shape[-1] battles per cell)."""
    p = 1.0 / (1.0 + np.exp(-logit))[..., None]
    tie = rng.random(shape) < TIE_PROB
    return np.where(tie, 0.5, (rng.random(shape) < p).astype(float))


def simulate(arenas: int, queries: int, rng: np.random.Generator) -> np.ndarray:
    """(arenas, queries, pairs, 2) lower model's score in the pair's two seat orders."""
    u = rng.normal(0.0, QUERY_SD, (arenas, queries, M))
    logit = STRENGTHS[LO] - STRENGTHS[HI] + u[..., LO] - u[..., HI]
    return battle_scores((arenas, queries, LO.size, 2), logit, rng)


def population_elo() -> np.ndarray:
    nodes, weights = np.polynomial.hermite_e.hermegauss(80)
    d = (STRENGTHS[LO] - STRENGTHS[HI])[:, None] + np.sqrt(2.0) * QUERY_SD * nodes
    win = (weights / weights.sum() / (1.0 + np.exp(-d))).sum(axis=1)
    expected = TIE_PROB / 2.0 + (1.0 - TIE_PROB) * win
    s = newton_fit_batch(LO, HI, expected[None], np.ones((1, LO.size)), M, 1e-12, np.zeros(M))
    return log_strength_to_elo(s[0])


def fit_elo(wins: np.ndarray, total: np.ndarray, start: np.ndarray) -> np.ndarray:
    shape = wins.shape[:-1]
    rows = wins.reshape(-1, LO.size)
    tot = np.broadcast_to(total, wins.shape).reshape(-1, LO.size)
    s = newton_fit_batch(LO, HI, rows, tot, M, DEFAULT_REG, start.reshape(-1, M))
    return log_strength_to_elo(s.reshape(*shape, M))


def bootstrap_arenas(scores: np.ndarray, seeds: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Point log-strengths' Elo (arenas, M) and bootstrap Elo (arenas, ROUNDS, M)."""
    per_query = scores.sum(axis=-1)  # (arenas, queries, pairs)
    queries = per_query.shape[1]
    total = np.full(LO.size, 2.0)
    wins = per_query.sum(axis=1)
    totals = np.broadcast_to(total * queries, wins.shape)
    start = newton_fit_batch(LO, HI, wins, totals, M, DEFAULT_REG, np.zeros(M))
    mult = np.stack(
        [next(query_multiplicities(queries, ROUNDS, np.random.default_rng(s))) for s in seeds]
    )
    resampled = np.einsum("arq,aqp->arp", mult, per_query)
    starts = np.repeat(start[:, None, :], ROUNDS, axis=1)
    samples = fit_elo(resampled, total * mult.sum(axis=-1, keepdims=True), starts)
    return log_strength_to_elo(start), samples


def coverage(queries: int, arenas: int, seed: int) -> tuple[float, float]:
    """(library interval, plain percentile) coverage of the population ratings."""
    rng = np.random.default_rng(seed)
    point, samples = bootstrap_arenas(simulate(arenas, queries, rng), list(range(arenas)))
    truth = population_elo()
    low, high = bootstrap_interval(samples, queries, point=point, axis=1)
    old_low, old_high = np.percentile(samples, [2.5, 97.5], axis=1)
    ours = float(((low <= truth) & (truth <= high)).mean())
    old = float(((old_low <= truth) & (truth <= old_high)).mean())
    return ours, old


def test_the_vectorised_harness_is_the_library_bootstrap() -> None:
    rng = np.random.default_rng(5)
    scores = simulate(1, 9, rng)[0]  # (queries, pairs, 2)
    q, p, seat = np.meshgrid(np.arange(9), np.arange(LO.size), np.arange(2), indexing="ij")
    lo, hi = LO[p.ravel()], HI[p.ravel()]
    first = seat.ravel() == 0
    battles = Battles(
        np.where(first, lo, hi),
        np.where(first, hi, lo),
        np.where(first, scores.ravel(), 1.0 - scores.ravel()),
        q.ravel(),
        tuple(f"m{i}" for i in range(M)),
    )
    fit = bootstrap_bradley_terry(battles, rounds=ROUNDS, seed=7)
    point, samples = bootstrap_arenas(scores[None], [7])
    np.testing.assert_allclose(fit.rating, point[0], atol=1e-6)
    np.testing.assert_allclose(fit.samples, samples[0], atol=1e-6)
    low, high = bootstrap_interval(samples[0], 9, point=point[0])
    np.testing.assert_allclose(fit.ci_low, low, atol=1e-6)
    np.testing.assert_allclose(fit.ci_high, high, atol=1e-6)


@pytest.mark.parametrize("queries", [8, 10])
def test_small_arenas_cover_at_least_93_percent(queries: int) -> None:
    # 400 arenas x 4 models: the standard error of a coverage near 95% is about 1.2%
    ours, old = coverage(queries, 400, seed=queries)
    assert ours >= 0.93, ours
    assert old < 0.92, old  # the plain percentile interval this replaced does not


def test_no_loss_at_30_queries() -> None:
    ours, old = coverage(30, 200, seed=30)
    assert ours >= max(old, 0.935), (ours, old)


def test_compare_false_better_rate_at_8_queries() -> None:
    # two equally strong variants; "better" when the whole win-rate interval is above 0.5
    rng = np.random.default_rng(8)
    comparisons, queries, rounds = 3000, 8, 1000
    u = rng.normal(0.0, QUERY_SD, (comparisons, queries, 2))
    scores = battle_scores((comparisons, queries, 2), u[..., 0] - u[..., 1], rng)
    mult = np.stack(
        [
            next(query_multiplicities(queries, rounds, np.random.default_rng(t)))
            for t in range(comparisons)
        ]
    )
    rates = mult @ scores.mean(axis=-1)[..., None] / queries  # (comparisons, rounds, 1)
    point = scores.mean(axis=(1, 2))
    low = bootstrap_interval(rates[..., 0], queries, point=point, axis=1, limits=(0, 1))[0]
    old_low = np.percentile(rates[..., 0], 2.5, axis=1)
    q = np.repeat(np.arange(queries), 2)
    seat_a = np.tile([0, 1], queries)
    for trial in range(20):  # the vectorised rates are bootstrap_win_rate's
        s = scores[trial].ravel()
        battles = Battles(seat_a, 1 - seat_a, np.where(seat_a == 0, s, 1.0 - s), q, ("x", "y"))
        rate = bootstrap_win_rate(battles, "x", "y", rounds=rounds, seed=trial)
        assert rate.ci_low == pytest.approx(low[trial], abs=1e-12)
    # nominal 2.5%; the binomial SE of a 2.5% rate over 3000 trials is 0.29%
    assert (low > 0.5).mean() <= 0.025 + 0.005, (low > 0.5).mean()
    assert (old_low > 0.5).mean() > 0.033, (old_low > 0.5).mean()  # the old interval: 3.8%

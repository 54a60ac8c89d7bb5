"""Bootstrap rounds on several threads (arena.ratings._round_workers): the same ratings,
bit for bit, whatever the number of workers; and the per-(query, pair)-cell resampling the
rounds are refitted from equals resampling the battles themselves with the same draws."""

from __future__ import annotations

import numpy as np
import pytest

from arena.ratings import (
    DEFAULT_REG,
    Battles,
    aggregate_pairs,
    bootstrap_bradley_terry,
    log_strength_to_elo,
    newton_fit_batch,
    query_multiplicities,
)
from arena.ratings import _sparse_newton as sparse_newton
from arena.ratings._pair_counts import unique_inverse
from arena.ratings._round_workers import default_workers, solve_chunks
from tests.ratings.test_round_starts import few_query_arena

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("m", "n", "n_queries"), [(72, 1_200, 20), (70, 1_000, 1_000)])
def test_any_number_of_workers_gives_the_same_rounds(
    monkeypatch: pytest.MonkeyPatch, m: int, n: int, n_queries: int
) -> None:
    battles = few_query_arena(m, n, n_queries, seed=m, weighted=True)
    # A small budget makes many chunks of a few rounds, so the threads really share them.
    monkeypatch.setattr(sparse_newton, "SPARSE_BUDGET", 200_000)
    assert sparse_newton.chunk_columns(m * 20, m) < 10
    fits = [bootstrap_bradley_terry(battles, rounds=8, seed=2, workers=w) for w in (1, 3)]
    for fit in fits[1:]:
        np.testing.assert_array_equal(fit.samples, fits[0].samples)
        np.testing.assert_array_equal(fit.ci_low, fits[0].ci_low)
        np.testing.assert_array_equal(fit.ci_high, fits[0].ci_high)
    default = bootstrap_bradley_terry(battles, rounds=8, seed=2)
    np.testing.assert_array_equal(default.samples, fits[0].samples)
    assert float(fits[0].samples.std(axis=0).min()) > 1.0  # the rounds really differ


def test_cell_rounds_equal_refits_of_the_resampled_battles() -> None:
    """Each round, refitted from summed (query, pair) cells, is the optimum of the battles
    that its query multiplicities select, every battle repeated as often as its query."""
    battles = few_query_arena(70, 1_500, 20, seed=5, weighted=True)
    rounds, seed = 3, 9
    fit = bootstrap_bradley_terry(battles, rounds=rounds, seed=seed, workers=2)
    _, query = unique_inverse(battles.query)
    assert np.bincount(query).min() > 1  # every query its own type: the same random stream
    mult = next(query_multiplicities(int(query.max()) + 1, rounds, np.random.default_rng(seed)))
    for r in range(rounds):
        rows = np.repeat(np.arange(len(battles)), mult[r, query].astype(np.int64))
        drawn = Battles(
            battles.model_a[rows],
            battles.model_b[rows],
            battles.outcome[rows],
            battles.query[rows],
            battles.models,
            weight=battles.weight[rows],
        )
        counts = aggregate_pairs(drawn)
        wins, total = counts.wins_lo[None], counts.total[None]
        s = newton_fit_batch(counts.lo, counts.hi, wins, total, 70, DEFAULT_REG, np.zeros(70))
        refit = log_strength_to_elo(s[0])
        assert float(np.abs(refit - fit.samples[r]).max()) < 1e-6


def test_chunks_fill_in_order_and_workers_are_validated() -> None:
    out = np.zeros((10, 2))
    solve_chunks(lambda rows: np.arange(rows.start, rows.stop)[:, None] * [1.0, 2.0], 10, 3, out, 4)
    np.testing.assert_array_equal(out[:, 1], 2.0 * np.arange(10))
    assert default_workers() >= 1
    battles = few_query_arena(70, 1_000, 10, seed=1)
    with pytest.raises(ValueError, match="workers"):
        bootstrap_bradley_terry(battles, rounds=5, workers=0)

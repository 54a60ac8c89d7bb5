"""The compare verdict's win-rate interval (arena/ratings/_win_interval.py): never zero width,
and honest in simulation from 4 to 30 queries (coverage, and the false "better" rate)."""

from __future__ import annotations

import numpy as np
import pytest

from arena.ratings import Battles, bootstrap_win_rate, score_interval, win_rate_interval

pytestmark = pytest.mark.unit

#: (win, tie, loss) probabilities of one battle, from an even match to a near sweep
MIXES = [
    (0.5, 0.0, 0.5),
    (0.2, 0.6, 0.2),
    (0.05, 0.9, 0.05),
    (0.3, 0.3, 0.4),
    (0.6, 0.3, 0.1),
    (0.8, 0.2, 0.0),
    (0.9, 0.1, 0.0),
    (0.95, 0.05, 0.0),
]
SIZES = (4, 6, 8, 12, 30)
REPS = 1500


def simulate(mix: tuple[float, float, float], n: int, rng: np.random.Generator) -> np.ndarray:
    """(REPS, n) scores of one battle per query."""
    return rng.choice([1.0, 0.5, 0.0], size=(REPS, n), p=mix)


def test_every_score_alike_still_has_a_spread() -> None:
    for value in (0.0, 0.5, 1.0):
        _, low, high = score_interval(np.full(6, value), np.ones(6))
        assert high - low > 0.2  # six ties: not "0.50 [0.50, 0.50]"
    point, low, high = score_interval(np.full(6, 0.5), np.ones(6))
    assert point == 0.5 and low < 0.45 < 0.55 < high
    # four wins out of four are no proof of "better" (exact binomial lower bound: 0.40)
    assert score_interval(np.ones(4), np.ones(4))[1] < 0.5


def test_the_query_bootstrap_it_replaces_collapses_on_ties() -> None:
    battles = Battles.from_records(["x"] * 6, ["y"] * 6, ["tie"] * 6, [str(i) for i in range(6)])
    old = bootstrap_win_rate(battles, "x", "y", rounds=200)
    assert old.ci_low == old.ci_high == 0.5
    new = win_rate_interval(battles, "x", "y")
    assert new.win_rate == 0.5 and new.n_battles == 6 and new.ci_high - new.ci_low > 0.4


def test_queries_pool_their_battles_and_seats() -> None:
    # x wins case 1 twice (once in each seat), case 2 is a tie, case 3 lost once
    battles = Battles.from_records(
        ["x", "y", "x", "y"],
        ["y", "x", "y", "x"],
        ["model_a", "model_b", "tie", "model_a"],
        ["1", "1", "2", "3"],
    )
    rate = win_rate_interval(battles, "x", "y")
    assert rate.win_rate == pytest.approx(2.5 / 4) and rate.n_battles == 4
    # the same as the interval of the per-query totals
    _, low, high = score_interval([2.0, 0.5, 0.0], [2.0, 1.0, 1.0])
    assert (rate.ci_low, rate.ci_high) == pytest.approx((low, high))
    three = Battles.from_records(["x", "y"], ["y", "z"], ["tie", "tie"], ["1", "1"])
    assert np.isnan(win_rate_interval(three, "x", "z").win_rate)


def test_coverage_and_false_better_rate_in_simulation() -> None:
    rng = np.random.default_rng(7)
    coverage = {}
    for mix in MIXES:
        truth = mix[0] + mix[1] / 2.0
        for n in SIZES:
            scores = simulate(mix, n, rng)
            _, low, high = score_interval(scores, np.ones_like(scores))
            assert (high - low).min() > 0.0
            coverage[mix, n] = float(((low <= truth) & (truth <= high)).mean())
            if truth == 0.5:  # an equal candidate called better: at most about 2.5%
                assert (low > 0.5).mean() < 0.035, (mix, n)
    # 95% nominal; binomial lattices dip a little below it (1500 draws: +-0.6% noise)
    assert min(coverage.values()) > 0.92, min(coverage.items(), key=lambda kv: kv[1])
    assert np.mean(list(coverage.values())) > 0.955

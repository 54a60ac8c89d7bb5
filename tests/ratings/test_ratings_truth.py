"""arena.ratings against ground truth: simulated battles from known strengths."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize, stats

from arena.ratings import (
    Battles,
    RatingOptions,
    bootstrap_bradley_terry,
    bootstrap_style_controlled,
    bradley_terry,
    fit_style_controlled,
    rating_table,
)

pytestmark = pytest.mark.unit

ELO_PER_NAT = 400.0 / np.log(10.0)


def simulate(
    strengths: np.ndarray,
    n: int,
    rng: np.random.Generator,
    *,
    n_queries: int,
    tie_prob: float = 0.0,
    verbosity: np.ndarray | None = None,
    length_effect: float = 0.0,
) -> Battles:
    """BT battles; with ``verbosity`` each model answers with lognormal lengths around
    exp(verbosity) and the log-odds gain ``length_effect * (la - lb) / (la + lb + 1)``."""
    m = len(strengths)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    logit = strengths[a] - strengths[b]
    len_a = len_b = None
    if verbosity is not None:
        len_a = np.exp(verbosity[a] + 0.3 * rng.standard_normal(n))
        len_b = np.exp(verbosity[b] + 0.3 * rng.standard_normal(n))
        logit = logit + length_effect * (len_a - len_b) / (len_a + len_b + 1.0)
    outcome = (rng.random(n) < 1.0 / (1.0 + np.exp(-logit))).astype(float)
    outcome[rng.random(n) < tie_prob] = 0.5
    return Battles(
        a,
        b,
        outcome,
        rng.integers(0, n_queries, n),
        tuple(f"m{i}" for i in range(m)),
        len_a=len_a,
        len_b=len_b,
    )


def centred_elo(strengths: np.ndarray) -> np.ndarray:
    return ELO_PER_NAT * (strengths - strengths.mean()) + 1000.0


def test_recovers_true_order_and_ratings() -> None:
    rng = np.random.default_rng(20)
    strengths = np.linspace(-1.4, 1.4, 8)[rng.permutation(8)]
    battles = simulate(strengths, 20_000, rng, n_queries=2_000, tie_prob=0.1)
    ratings = bradley_terry(battles)
    assert stats.spearmanr(ratings, strengths).statistic == pytest.approx(1.0)
    # random ties (not from the BT model) shrink the spread; decisive battles are unbiased
    truth = centred_elo(strengths)
    assert np.ptp(ratings) < np.ptp(truth)
    decisive = battles.select(battles.outcome != 0.5)
    assert np.abs(bradley_terry(decisive) - truth).max() < 15.0


def test_bootstrap_intervals_cover_truth() -> None:
    rng = np.random.default_rng(21)
    strengths = np.array([0.0, 0.4, -0.3, 0.9])
    truth = 1000.0 + ELO_PER_NAT * (strengths[1:] - strengths[0])
    covered = []
    for _ in range(150):
        battles = simulate(strengths, 360, rng, n_queries=120)
        boot = bootstrap_bradley_terry(
            battles, rounds=200, seed=int(rng.integers(1 << 31)), anchor="m0"
        )
        covered.append((boot.ci_low[1:] <= truth) & (truth <= boot.ci_high[1:]))
    coverage = float(np.mean(covered))
    assert 0.88 <= coverage <= 0.99, coverage


def test_style_control_recovers_planted_length_effect() -> None:
    rng = np.random.default_rng(22)
    strengths = np.array([0.0, 0.3, 0.6, 0.9, 1.2])
    verbosity = np.array([7.0, 6.0, 6.5, 5.5, 5.0])  # weaker models write longer answers
    battles = simulate(
        strengths, 12_000, rng, n_queries=3_000, verbosity=verbosity, length_effect=3.0
    )
    plain = bradley_terry(battles)
    fit = fit_style_controlled(battles)
    length = fit.effect("length")
    truth = centred_elo(strengths)
    assert battles.len_a is not None and battles.len_b is not None
    raw = (battles.len_a - battles.len_b) / (battles.len_a + battles.len_b + 1.0)
    assert length.scale == pytest.approx(np.sqrt(np.mean(raw**2)))
    assert length.coef == pytest.approx(3.0 * length.scale, rel=0.2)
    assert length.elo == pytest.approx(length.coef * ELO_PER_NAT)
    err_plain = np.sqrt(np.mean((plain - truth) ** 2))
    err_style = np.sqrt(np.mean((fit.rating - truth) ** 2))
    assert err_style < 0.5 * err_plain
    assert stats.spearmanr(fit.rating, strengths).statistic == pytest.approx(1.0)


def test_style_control_without_length_signal_equals_plain_bt() -> None:
    rng = np.random.default_rng(23)
    base = simulate(np.array([0.0, 0.5, 1.0]), 900, rng, n_queries=300, tie_prob=0.2)
    same = np.full(len(base), 100.0)
    battles = Battles(
        base.model_a, base.model_b, base.outcome, base.query, base.models, len_a=same, len_b=same
    )
    fit = fit_style_controlled(battles, anchor="m0")
    assert fit.effect("length").coef == 0.0
    np.testing.assert_allclose(fit.rating, bradley_terry(battles, anchor="m0"), atol=1e-3)
    with pytest.raises(ValueError, match="'length' needs per-answer length counts"):
        fit_style_controlled(base)


def test_style_bootstrap_and_leaderboard() -> None:
    rng = np.random.default_rng(24)
    battles = simulate(
        np.array([0.0, 0.8, 0.4]),
        1_500,
        rng,
        n_queries=300,
        verbosity=np.array([6.0, 5.0, 6.5]),
        length_effect=2.0,
    )
    boot = bootstrap_style_controlled(battles, rounds=30, seed=1)
    assert np.all(boot.ci_low <= boot.rating) and np.all(boot.rating <= boot.ci_high)
    options = RatingOptions(bootstrap_rounds=30, seed=1, style=("length",), elo_rounds=5)
    board = rating_table(battles, options)
    assert board.method == "style-bt" and board.effects[0].name == "length"
    assert board.effects[0].coef > 0.0
    assert board.models[0] == "m1"
    np.testing.assert_allclose(np.sort(board.rating)[::-1], board.rating)
    np.testing.assert_allclose(board.rating, boot.rating[[1, 2, 0]], atol=1e-9)


def test_style_fit_matches_independent_logistic_regression() -> None:
    rng = np.random.default_rng(25)
    battles = simulate(
        np.array([0.2, -0.4, 0.7, 0.0]),
        1_200,
        rng,
        n_queries=400,
        tie_prob=0.15,
        verbosity=np.array([6.0, 6.4, 5.6, 6.2]),
        length_effect=1.5,
    )
    assert battles.len_a is not None and battles.len_b is not None
    raw = (battles.len_a - battles.len_b) / (battles.len_a + battles.len_b + 1.0)
    z = raw / np.sqrt(np.mean(raw**2))  # scaled, never centred
    n, m, reg = len(battles), battles.n_models, 1e-4
    x = np.zeros((n, m + 1))
    x[np.arange(n), battles.model_a] = 1.0
    x[np.arange(n), battles.model_b] = -1.0
    x[:, m] = z
    y = battles.outcome

    def fun(theta: np.ndarray) -> tuple[float, np.ndarray]:
        logit = x @ theta
        f = np.sum(np.logaddexp(0.0, logit) - y * logit) + 0.5 * reg * theta @ theta
        return float(f), x.T @ (1.0 / (1.0 + np.exp(-logit)) - y) + reg * theta

    theta = optimize.minimize(
        fun, np.zeros(m + 1), jac=True, method="BFGS", options={"gtol": 1e-9}
    ).x
    fit = fit_style_controlled(battles, reg=reg)
    assert fit.effect("length").coef == pytest.approx(theta[m], abs=1e-6)
    expected = ELO_PER_NAT * (theta[:m] - theta[:m].mean()) + 1000.0
    np.testing.assert_allclose(fit.rating, expected, atol=1e-3)

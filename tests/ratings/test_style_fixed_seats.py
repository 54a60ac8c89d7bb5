"""Style control when battles keep one seat order (issue 15): no hidden intercept.

Stored battles keep a fixed seat order (``make_pairs`` puts the earlier variant, or the
anchor, in seat A), so the length ratio's average is far from zero. Battles are simulated
from known strengths and a known length coefficient in the ``all`` and ``anchor:`` designs
and the style-controlled fit is checked against the truth and against an independent,
unpenalised logistic regression on the raw ratio.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from arena.ratings import (
    Battles,
    bootstrap_style_controlled,
    fit_style_controlled,
    seat_identifiable,
    style_problem,
)

pytestmark = pytest.mark.unit

ELO_PER_NAT = 400.0 / np.log(10.0)


def fixed_seat_battles(
    strengths: np.ndarray,
    mean_length: np.ndarray,
    n: int,
    rng: np.random.Generator,
    *,
    design: str,
    length_effect: float = 2.0,
    seat_effect: float = 0.0,
    n_queries: int = 300,
) -> Battles:
    """Battles in a fixed seat order: ``all`` (pair i < j, i in seat A) or ``anchor`` (model
    0 always in seat A). Lengths are lognormal around ``mean_length``; the log-odds of A
    winning are ``s_a - s_b + length_effect * (la - lb) / (la + lb + 1) + seat_effect``."""
    m = len(strengths)
    if design == "anchor":
        a = np.zeros(n, dtype=np.int64)
        b = rng.integers(1, m, n)
    else:
        pairs = np.array([(i, j) for i in range(m) for j in range(i + 1, m)])
        a, b = pairs[rng.integers(0, len(pairs), n)].T
    len_a = mean_length[a] * np.exp(0.4 * rng.standard_normal(n))
    len_b = mean_length[b] * np.exp(0.4 * rng.standard_normal(n))
    raw = (len_a - len_b) / (len_a + len_b + 1.0)
    logit = strengths[a] - strengths[b] + length_effect * raw + seat_effect
    outcome = (rng.random(n) < 1.0 / (1.0 + np.exp(-logit))).astype(float)
    models = tuple(f"m{i}" for i in range(m))
    return Battles(a, b, outcome, rng.integers(0, n_queries, n), models, len_a=len_a, len_b=len_b)


def truth_elo(strengths: np.ndarray, anchor: int | None = None) -> np.ndarray:
    ref = strengths.mean() if anchor is None else strengths[anchor]
    return np.asarray(ELO_PER_NAT * (strengths - ref) + 1000.0)


def reference_fit(battles: Battles) -> np.ndarray:
    """Unpenalised logistic regression on the raw ratio, no intercept: (strengths, beta)."""
    assert battles.len_a is not None and battles.len_b is not None
    n, m = len(battles), battles.n_models
    x = np.zeros((n, m))
    x[np.arange(n), battles.model_a] = 1.0
    x[np.arange(n), battles.model_b] = -1.0
    x = np.column_stack(
        [x[:, 1:], (battles.len_a - battles.len_b) / (battles.len_a + battles.len_b + 1.0)]
    )
    y = battles.outcome

    def fun(theta: np.ndarray) -> tuple[float, np.ndarray]:
        logit = x @ theta
        return float(np.sum(np.logaddexp(0.0, logit) - y * logit)), x.T @ (
            1.0 / (1.0 + np.exp(-logit)) - y
        )

    theta = optimize.minimize(fun, np.zeros(m), jac=True, method="BFGS", options={"gtol": 1e-10}).x
    strengths = np.concatenate([[0.0], theta[: m - 1]])
    return np.concatenate([strengths - strengths.mean(), theta[m - 1 :]])


def within(
    estimate: np.ndarray, low: np.ndarray, high: np.ndarray, truth: np.ndarray, widen: float
) -> np.ndarray:
    """Whether ``truth`` lies inside the interval with each side widened ``widen`` times
    (robust to how the bootstrap draws its rounds; a bias of several widths still fails)."""
    err = truth - estimate
    return np.where(err >= 0.0, err <= widen * (high - estimate), -err <= widen * (estimate - low))


def test_equal_models_fixed_seats_longer_answers_get_equal_ratings() -> None:
    # X always in seat A, about 300 vs 100 tokens, the judge prefers longer answers; the
    # truth is equal strength. Centring gave about X 1084 / Y 916 with intervals of +-9.
    rng = np.random.default_rng(150)
    battles = fixed_seat_battles(
        np.zeros(2), np.array([300.0, 100.0]), 2_000, rng, design="anchor", n_queries=200
    )
    boot = bootstrap_style_controlled(battles, rounds=200, seed=1)
    assert abs(boot.rating[0] - boot.rating[1]) < 40.0, boot.rating
    diff = boot.samples[:, 0] - boot.samples[:, 1]
    low, high = np.percentile(diff, [2.5, 97.5])
    d = np.array([boot.rating[0] - boot.rating[1]])
    assert within(d, np.array([low]), np.array([high]), np.zeros(1), widen=1.5).all()
    # the length preference itself is found, and its interval excludes zero
    length = boot.effect("length")
    assert length.ci_low > 0.0
    assert length.coef / length.scale == pytest.approx(2.0, abs=0.6)


@pytest.mark.parametrize("design", ["all", "anchor"])
def test_fixed_seat_designs_match_the_reference_and_cover_the_truth(design: str) -> None:
    rng = np.random.default_rng(151 if design == "all" else 152)
    strengths = np.array([0.0, 0.5, -0.3, 0.8, 0.2])
    mean_length = np.array([300.0, 150.0, 200.0, 100.0, 250.0])
    battles = fixed_seat_battles(strengths, mean_length, 3_000, rng, design=design)
    ref = reference_fit(battles)
    fit = fit_style_controlled(battles, reg=1e-8)
    np.testing.assert_allclose(fit.rating, ELO_PER_NAT * ref[:5] + 1000.0, atol=0.05)
    length = fit.effect("length")
    assert length.coef / length.scale == pytest.approx(ref[5], rel=1e-4)
    boot = bootstrap_style_controlled(battles, rounds=150, seed=2, anchor="m0")
    truth = truth_elo(strengths, anchor=0)
    inside = within(boot.rating, boot.ci_low, boot.ci_high, truth, widen=2.0)
    assert inside.all(), (boot.rating - truth, boot.ci_low - truth, boot.ci_high - truth)


def test_anchor_design_error_does_not_grow_with_battles() -> None:
    # Centring biased the anchor by a fixed amount (about +75 Elo here) at every size.
    strengths = np.array([0.0, 0.5, -0.3, 0.8, 0.2])
    mean_length = np.array([300.0, 150.0, 200.0, 100.0, 250.0])
    truth = truth_elo(strengths)
    errors = []
    for n, seed in ((2_000, 153), (40_000, 154)):
        battles = fixed_seat_battles(
            strengths, mean_length, n, np.random.default_rng(seed), design="anchor"
        )
        errors.append(np.abs(fit_style_controlled(battles).rating - truth).max())
    assert errors[0] < 40.0
    assert errors[1] < 12.0
    assert errors[1] < errors[0]


def test_seat_swap_gives_the_same_ratings() -> None:
    rng = np.random.default_rng(155)
    battles = fixed_seat_battles(
        np.array([0.0, 0.6, -0.4]), np.array([200.0, 120.0, 320.0]), 1_500, rng, design="all"
    )
    assert battles.len_a is not None and battles.len_b is not None
    swapped = Battles(
        battles.model_b,
        battles.model_a,
        1.0 - battles.outcome,
        battles.query,
        battles.models,
        len_a=battles.len_b,
        len_b=battles.len_a,
    )
    one, two = fit_style_controlled(battles), fit_style_controlled(swapped)
    np.testing.assert_allclose(one.rating, two.rating, atol=1e-6)
    assert one.effect("length").coef == pytest.approx(two.effect("length").coef, abs=1e-8)


def test_seat_effect_is_reported_when_identifiable() -> None:
    rng = np.random.default_rng(156)
    strengths = np.array([0.0, 0.4, -0.2, 0.7])
    lengths = np.array([150.0, 150.0, 150.0, 150.0])
    battles = fixed_seat_battles(
        strengths, lengths, 8_000, rng, design="all", length_effect=1.5, seat_effect=0.4
    )
    assert seat_identifiable(battles)
    fit = fit_style_controlled(battles, features=("length", "seat"))
    seat = fit.effect("seat")
    assert seat.scale == 1.0
    assert seat.coef == pytest.approx(0.4, abs=0.12)
    assert seat.elo == pytest.approx(seat.coef * ELO_PER_NAT)
    assert np.abs(fit.rating - truth_elo(strengths)).max() < 30.0
    # without the seat covariate the seat advantage leaks into the ratings
    plain = fit_style_controlled(battles)
    assert np.abs(plain.rating - truth_elo(strengths)).max() > 40.0


def test_seat_effect_is_refused_when_the_design_cannot_tell_it_apart() -> None:
    rng = np.random.default_rng(157)
    lengths = np.array([150.0, 100.0, 200.0])
    anchor = fixed_seat_battles(np.zeros(3), lengths, 300, rng, design="anchor")
    two = fixed_seat_battles(np.zeros(2), lengths[:2], 300, rng, design="all")
    for battles in (anchor, two):
        assert not seat_identifiable(battles)
        problem = style_problem(battles, ("length", "seat"))
        assert problem is not None and "not identifiable" in problem
        with pytest.raises(ValueError, match="not identifiable"):
            fit_style_controlled(battles, features=("seat",))
    mixed = fixed_seat_battles(np.zeros(2), lengths[:2], 300, rng, design="all")
    flip = np.arange(len(mixed)) % 2 == 0
    mixed = Battles(
        np.where(flip, mixed.model_b, mixed.model_a),
        np.where(flip, mixed.model_a, mixed.model_b),
        mixed.outcome,
        mixed.query,
        mixed.models,
    )
    assert seat_identifiable(mixed)


def test_markdown_counts_are_covariates_next_to_length() -> None:
    rng = np.random.default_rng(158)
    m, n = 4, 6_000
    strengths = np.array([0.0, 0.3, 0.6, -0.2])
    heavy = np.array([8.0, 0.5, 1.0, 4.0])  # weaker models use more headers
    pairs = np.array([(i, j) for i in range(m) for j in range(i + 1, m)])
    a, b = pairs[rng.integers(0, len(pairs), n)].T
    h_a, h_b = rng.poisson(heavy[a]).astype(float), rng.poisson(heavy[b]).astype(float)
    len_a = 200.0 * np.exp(0.3 * rng.standard_normal(n))
    len_b = 200.0 * np.exp(0.3 * rng.standard_normal(n))
    logit = strengths[a] - strengths[b] + 1.5 * (h_a - h_b) / (h_a + h_b + 1.0)
    outcome = (rng.random(n) < 1.0 / (1.0 + np.exp(-logit))).astype(float)
    zeros = np.zeros(n)
    battles = Battles(
        a,
        b,
        outcome,
        rng.integers(0, 500, n),
        tuple(f"m{i}" for i in range(m)),
        len_a=len_a,
        len_b=len_b,
        style_names=("headers", "lists", "bold"),
        style_a=np.column_stack([h_a, zeros, zeros]),
        style_b=np.column_stack([h_b, zeros, zeros]),
    )
    fit = fit_style_controlled(battles, features=("length", "headers", "lists", "bold"))
    headers = fit.effect("headers")
    assert headers.coef / headers.scale == pytest.approx(1.5, abs=0.35)
    assert fit.effect("lists").coef == 0.0 and fit.effect("lists").scale == 0.0
    assert abs(fit.effect("length").coef) < 0.15
    assert np.abs(fit.rating - truth_elo(strengths)).max() < 30.0
    length_only = fit_style_controlled(battles)
    assert np.abs(length_only.rating - truth_elo(strengths)).max() > 40.0

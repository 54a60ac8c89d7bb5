"""The power estimate: the cases it asks for really decide about 80% of the time, and the
repeats it asks for follow the variance decomposition."""

from __future__ import annotations

import numpy as np
import pytest

from arena.battles import Battle
from arena.compare._power import power_estimate, win_rate_groups
from arena.gate._noise import bootstrap_mean_intervals

pytestmark = pytest.mark.unit


def test_the_cases_asked_for_decide_with_about_80_percent_power() -> None:
    rng = np.random.default_rng(0)
    effect, tau, sigma, repeats = 0.1, 0.2, 0.3, 2
    pilot = [list(rng.normal(mu, sigma, repeats)) for mu in rng.normal(effect, tau, 4000)]
    estimate = power_estimate(pilot, 0.0)
    expected = (1.959964 + 0.841621) ** 2 * (tau**2 + sigma**2 / repeats) / effect**2
    assert estimate.cases_needed == pytest.approx(expected, rel=0.08)
    m = int(estimate.cases_needed or 0)
    trials = 2000
    means = rng.normal(effect, tau, (trials, m))
    observed = (means[..., None] + rng.normal(0, sigma, (trials, m, repeats))).mean(-1)
    low, _ = bootstrap_mean_intervals(observed, rounds=500, seed=1)
    decided = float((low > 0).mean())
    assert 0.74 <= decided <= 0.86


def test_the_repeats_asked_for_decide_too() -> None:
    """Little spread between cases, much between repeats: more repeats on the same cases."""
    rng = np.random.default_rng(3)
    effect, tau, sigma, m = 0.1, 0.05, 0.5, 60
    pilot = [list(rng.normal(mu, sigma, 2)) for mu in rng.normal(effect, tau, m)]
    estimate = power_estimate(pilot, 0.0)
    repeats = estimate.repeats_needed
    assert repeats is not None and 3 <= repeats <= 8  # about 4 from the true variances
    assert f"{repeats} repeats on these {m} cases" in estimate.message
    trials = 2000
    means = rng.normal(effect, tau, (trials, m))
    observed = (means[..., None] + rng.normal(0, sigma, (trials, m, repeats))).mean(-1)
    low, _ = bootstrap_mean_intervals(observed, rounds=500, seed=2)
    assert 0.72 <= float((low > 0).mean()) <= 0.97


def test_more_repeats_cannot_fix_a_spread_between_cases() -> None:
    groups = [[mu, mu] for mu in [-0.4, 0.6] * 4]  # no repeat noise, large case spread
    estimate = power_estimate(groups, 0.0)
    assert estimate.repeats_needed is None and estimate.cases_needed is not None
    assert "more repeats alone cannot" in estimate.message


def test_without_repeats_only_cases_are_sized() -> None:
    estimate = power_estimate([[0.2], [0.0], [0.1], [0.3]], 0.0)
    assert estimate.repeats_needed is None and estimate.repeats == 1
    assert "--repeats 2" in estimate.message


def test_an_estimate_on_the_boundary_cannot_be_sized() -> None:
    estimate = power_estimate([[0.4], [0.6]], 0.5)
    assert estimate.cases_needed is None and "boundary" in estimate.message


def _battle(case: str, a: str, b: str, winner: str, repeat: int = 0) -> Battle:
    return Battle.model_validate(
        {
            "run_id": 1,
            "judge": {"model": {"spec": "fake:j"}},
            "case_id": case,
            "repeat": repeat,
            "variant_a": a,
            "variant_b": b,
            "hash_a": "ha",
            "hash_b": "hb",
            "result_a_id": 1,
            "result_b_id": 2,
            "winner": winner,
        }
    )


def test_win_rate_groups_score_the_candidate_in_either_seat() -> None:
    battles = [
        _battle("x", "cand", "base", "model_a"),
        _battle("x", "base", "cand", "tie", 1),
        _battle("y", "base", "cand", "model_a"),
        _battle("y", "cand", "base", "error"),
    ]
    assert win_rate_groups(battles, "cand") == [[1.0, 0.5], [0.0]]

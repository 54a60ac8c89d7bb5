"""The selective threshold's guarantee, tested by simulation against a known truth.

A synthetic population of judged pairs where P(the judge agrees with people | score) is
known exactly: over many random calibration / test splits, the threshold chosen by the
fixed-sequence test gives verdicts whose true agreement is at least the target at least
``1 - error`` of the time, while choosing the threshold by the point estimate visibly fails
the same test. Also the exact binomial bounds and the Platt map."""

from __future__ import annotations

import numpy as np
import pytest

from arena.trust._guarantee import (
    binomial_p_value,
    clopper_pearson_upper,
    fixed_sequence_threshold,
    min_given,
    platt,
    platt_fit,
    point_estimate_threshold,
)

pytestmark = pytest.mark.unit

TARGET, ERROR = 0.8, 0.1


def _population(n: int, low: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Scores uniform on [0, 1]; P(agree | s) = low + (0.95 - low) * s."""
    rng = np.random.default_rng(seed)
    scores = rng.uniform(0, 1, n)
    agrees = rng.uniform(0, 1, n) < low + (0.95 - low) * scores
    return scores, agrees


def _true_agreement(threshold: float, low: float) -> float:
    """The population's agreement among the verdicts scoring at least ``threshold``."""
    return low + (0.95 - low) * (1 + threshold) / 2


def _held_rates(low: float, calibration: int, splits: int, seed: int) -> tuple[float, float, float]:
    """(how often the guarantee held for the valid and the point-estimate procedure, the
    valid procedure's mean coverage on the test part) over random calibration/test splits."""
    scores, agrees = _population(20_000, low, seed)
    rng = np.random.default_rng(seed + 1)
    valid = naive = 0
    coverage = []
    for _ in range(splits):
        order = rng.permutation(len(scores))
        cal, test = order[:calibration], order[calibration:]
        chosen = fixed_sequence_threshold(scores[cal], agrees[cal], TARGET, ERROR).threshold
        valid += chosen is None or _true_agreement(chosen, low) >= TARGET
        guess = point_estimate_threshold(scores[cal], agrees[cal], TARGET)
        naive += guess is None or _true_agreement(guess, low) >= TARGET
        coverage.append(0.0 if chosen is None else float((scores[test] >= chosen).mean()))
    return valid / splits, naive / splits, float(np.mean(coverage))


@pytest.mark.system  # 300 calibrations of a 20,000-pair population: about a second
@pytest.mark.parametrize(("low", "calibration"), [(0.45, 200), (0.6, 400)])
def test_the_guarantee_holds_as_often_as_promised_and_the_point_estimate_does_not(
    low: float, calibration: int
) -> None:
    splits = 300
    valid, naive, coverage = _held_rates(low, calibration, splits, seed=7)
    # 1 - ERROR = 0.9 promised; 3 standard errors of a rate over 300 splits is about 0.05.
    assert valid >= 1 - ERROR - 3 * (ERROR * (1 - ERROR) / splits) ** 0.5
    assert naive < 0.7  # the point estimate lands below the target about half the time
    assert coverage > 0.05  # and the valid procedure still gives verdicts


def test_exact_binomial_bounds() -> None:
    assert binomial_p_value(0, 11, 0.2) == pytest.approx(0.8**11)
    assert binomial_p_value(0, 0, 0.2) == 1.0
    # The Clopper-Pearson upper bound of 0 of n is 1 - error ** (1 / n).
    assert clopper_pearson_upper(0, 20, 0.1) == pytest.approx(1 - 0.1 ** (1 / 20))
    assert clopper_pearson_upper(5, 5, 0.1) == 1.0
    # p <= error exactly when the upper bound is <= the tolerated disagreement rate.
    for k, n in [(2, 30), (6, 30), (9, 40), (0, 10), (0, 11)]:
        assert (binomial_p_value(k, n, 0.2) <= 0.1) == (clopper_pearson_upper(k, n, 0.1) <= 0.2)


def test_too_few_or_too_poor_verdicts_give_no_threshold() -> None:
    assert min_given(0.8, 0.1) == 11  # 0.8 ** 11 < 0.1 < 0.8 ** 10
    ten = fixed_sequence_threshold([0.9] * 10, [True] * 10)
    assert ten.threshold is None and ten.lower_agreement == 0.0
    eleven = fixed_sequence_threshold([0.9] * 11, [True] * 11)
    # Every threshold at or below 0.9 gives the same eleven verdicts: the lowest is chosen.
    assert eleven.threshold == 0.0 and eleven.given == 11
    coin = fixed_sequence_threshold(list(np.linspace(0, 1, 200)), [i % 2 == 0 for i in range(200)])
    assert coin.threshold is None


def test_the_sequence_stops_at_the_first_threshold_it_cannot_reject() -> None:
    # 40 sure verdicts scoring 0.9 (all agree), then 40 at 0.5 that agree half the time, then
    # 100 at 0.2 that always agree: the sequence stops at 0.5 and never reaches 0.2.
    scores = [0.9] * 40 + [0.5] * 40 + [0.2] * 100
    agrees = [True] * 40 + [i % 2 == 0 for i in range(40)] + [True] * 100
    found = fixed_sequence_threshold(scores, agrees)
    assert found.threshold == pytest.approx(0.51)
    assert found.given == 40 and found.agreed == 40
    assert found.lower_agreement == pytest.approx(0.1 ** (1 / 40))


def test_platt_recovers_a_known_logistic_map() -> None:
    rng = np.random.default_rng(3)
    scores = rng.uniform(0, 1, 20_000)
    agrees = rng.uniform(0, 1, len(scores)) < 1 / (1 + np.exp(-(-1.0 + 4.0 * scores)))
    intercept, slope = platt_fit(scores, agrees)
    assert intercept == pytest.approx(-1.0, abs=0.1) and slope == pytest.approx(4.0, abs=0.2)
    assert platt(0.25, intercept, slope) == pytest.approx(0.5, abs=0.03)


def test_a_score_that_falls_with_agreement_gets_the_base_rate() -> None:
    scores = np.linspace(0, 1, 100)
    intercept, slope = platt_fit(scores, scores < 0.3)
    assert slope == 0.0
    assert platt(0.0, intercept, slope) == pytest.approx(platt(1.0, intercept, slope))
    assert platt(0.5, intercept, slope) == pytest.approx(0.3, abs=0.02)

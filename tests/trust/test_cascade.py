"""A cascade of selective judges: each calibrated on its own labels for the pairs that reach
it, at error / k; a pair goes on only when the judges before abstained; people get what every
judge abstained on. Simulated judges of known accuracy (scores Beta(theta, 1), independent
between judges) and scripted battles."""

from __future__ import annotations

import numpy as np
import pytest

from arena.battles import Battle
from arena.models import ModelConfig
from arena.trust._cascade import calibrate_cascade, cascade_health, route
from arena.trust._selective import Labelled, PairId, calibrate
from judges import JudgeSpec
from judges._types import SelectiveSettings, Verdict
from tests.support.battles import battle

pytestmark = pytest.mark.unit

TARGET, ERROR = 0.8, 0.1
SETTINGS = SelectiveSettings(target=TARGET, error=ERROR)
LOCAL = JudgeSpec(model=ModelConfig(spec="fake:local"), mode="grades")
HOSTED = JudgeSpec(model=ModelConfig(spec="fake:hosted"), mode="grades")
S = np.linspace(0.0, 1.0, 4001)


class Judge:
    """A simulated judge: scores Beta(theta, 1); P(agree | s) = flat, or sigmoid(4 s)."""

    def __init__(self, theta: float, flat: float | None = None) -> None:
        self.theta, self.flat = theta, flat

    def agree(self, s: np.ndarray) -> np.ndarray:
        return np.full_like(s, self.flat) if self.flat is not None else 1 / (1 + np.exp(-4 * s))

    def given_share(self, t: float | None) -> float:
        """P(s >= t) (0 without a threshold)."""
        return 0.0 if t is None else 1.0 - t**self.theta

    def agreement_above(self, t: float) -> float:
        """E[P(agree | s) | s >= t]."""
        weight = self.theta * S ** (self.theta - 1 + 1e-12) * (t <= S)
        return float((weight * self.agree(S)).sum() / weight.sum())

    def labels(self, n: int, rng: np.random.Generator) -> list[Labelled]:
        s = rng.beta(self.theta, 1.0, n)
        a = rng.uniform(size=n) < self.agree(s)
        return [
            Labelled(float(x), bool(y), "golden", PairId.of(1, f"C-{i}", 0, "x", "y"))
            for i, (x, y) in enumerate(zip(s, a, strict=True))
        ]


def _cascade_figures(judges: list[Judge], n: int, rng: np.random.Generator) -> tuple[bool, float]:
    """(the cascade's guarantee held, the share of the population left for people)."""
    found = calibrate_cascade([j.labels(n, rng) for j in judges], SETTINGS)
    reach, weight, agreed = 1.0, 0.0, 0.0
    for judge, calibration in zip(judges, found, strict=True):
        t = None if calibration is None else calibration.threshold_score
        share = reach * judge.given_share(t)
        if share > 0:
            weight += share
            agreed += share * judge.agreement_above(t or 0.0)
        reach -= share
    return weight == 0 or agreed / weight >= TARGET - 1e-9, reach


@pytest.mark.system  # 300 cascades of two calibrations each: a few seconds
def test_a_cascade_behind_a_flat_78_percent_judge_keeps_the_guarantee() -> None:
    rng = np.random.default_rng(4)
    local, hosted = Judge(1.0, flat=0.78), Judge(2.64)  # hosted: 93% overall
    runs = [_cascade_figures([local, hosted], 60, rng) for _ in range(300)]
    assert sum(held for held, _ in runs) / len(runs) >= 1 - ERROR


@pytest.mark.system  # 200 cascades and 200 single calibrations
def test_a_stronger_second_judge_sends_fewer_pairs_to_people_with_the_guarantee_kept() -> None:
    rng = np.random.default_rng(8)
    local, hosted = Judge(1.16), Judge(2.64)  # 85% and 93% overall
    cascade = [_cascade_figures([local, hosted], 100, rng) for _ in range(200)]
    alone = []
    for _ in range(200):
        found = calibrate(local.labels(100, rng), SETTINGS, estimate_needed=False)
        t = None if found is None else found.threshold_score
        alone.append(1.0 - local.given_share(t))
    assert sum(held for held, _ in cascade) / len(cascade) >= 1 - ERROR
    to_people = float(np.mean([left for _, left in cascade]))
    assert to_people < 0.9 * float(np.mean(alone))  # about 16% against 21%


def _battle(i: int, judge: JudgeSpec, p_a: float) -> Battle:
    ab = Verdict(label="A>B", p_first=p_a, judge=judge)
    ba = Verdict(label="A>B", p_first=1 - p_a, judge=judge)
    return battle(i, judge, ab, ba, winner="model_a", p_a=p_a)


def _labels(scores_agree: list[tuple[float, bool]]) -> list[Labelled]:
    return [
        Labelled(s, a, "golden", PairId.of(1, f"L-{i}", 0, "x", "y"))
        for i, (s, a) in enumerate(scores_agree)
    ]


def test_a_pair_goes_on_only_when_the_judge_before_abstains() -> None:
    # The local judge is sure only of scores >= 0.9 (its labels there all agree); the hosted
    # judge of scores >= 0.5. Pair 0: local gives it. Pair 1: local abstains, hosted gives it.
    # Pair 2: both abstain: people.
    local_labels = _labels([(0.95, True)] * 40 + [(0.3, i % 2 == 0) for i in range(40)])
    hosted_labels = _labels([(0.7, True)] * 60 + [(0.1, i % 2 == 0) for i in range(20)])
    local = [_battle(0, LOCAL, 0.99), _battle(1, LOCAL, 0.6), _battle(2, LOCAL, 0.55)]
    hosted = [_battle(0, HOSTED, 0.9), _battle(1, HOSTED, 0.9), _battle(2, HOSTED, 0.52)]
    found = calibrate_cascade([local_labels, hosted_labels], SETTINGS)
    assert all(c is not None and c.error == pytest.approx(ERROR / 2) for c in found)
    routed = route([local, hosted], found)
    assert list(routed.values()) == [0, 1, None]
    health = cascade_health(["local", "hosted"], [local, hosted], [local_labels, hosted_labels])
    assert [(s.reached, s.given) for s in health.stages] == [(3, 1), (2, 1)]
    assert health.to_people == 1
    assert health.text().startswith(
        "cascade of 2 judges on 3 pairs: local gives 1 of 3; hosted gives 1 of 2; people get 1."
    )
    assert "at error level 0.05" in health.text()
    # The local judge alone would send two of the three pairs to people.
    (alone,) = calibrate_cascade([local_labels], SETTINGS)
    assert sum(v is None for v in route([local], [alone]).values()) == 2


def test_the_second_judge_calibrates_only_on_the_pairs_that_reach_it() -> None:
    # Both judges labelled the same 80 pairs; the local judge gives the 40 it is sure of, so
    # the hosted judge is calibrated on the other 40 only.
    local_labels = _labels([(0.95, True)] * 40 + [(0.3, i % 2 == 0) for i in range(40)])
    hosted_labels = _labels([(0.7, True)] * 80)
    local, hosted = calibrate_cascade([local_labels, hosted_labels], SETTINGS)
    assert local is not None and local.calibration_pairs == 80
    assert hosted is not None and hosted.calibration_pairs == 40

"""The known-horizon boundary and futility stops against known truths, by simulation (numpy,
thousands of runs at once): false decisions stay at most alpha / 2 per side with a Monte Carlo
margin a wrong boundary would exceed, the allowance is spent by the budget, and a futility
stop saves cases without adding a false decision."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from arena.sequential import (
    SpendingCS,
    decide,
    decision_chance,
    futile,
)
from arena.sequential._spending import critical, spent

pytestmark = pytest.mark.unit
RUNS, BUDGET, MARGIN = 4000, 100, 0.05
Draw = Callable[[np.random.Generator], np.ndarray]
LIMIT = 0.025 + 3 * np.sqrt(0.025 * 0.975 / RUNS)  # alpha / 2 plus 3 Monte Carlo errors


def _three(p: list[float]) -> Draw:
    return lambda rng: rng.choice([0.0, 0.5, 1.0], size=RUNS, p=p)


def _heterogeneous(rng: np.random.Generator) -> np.ndarray:
    """Each case its own win chance (mean 0.5 over cases), many ties."""
    p = rng.choice([0.9, 0.1, 0.5], size=RUNS, p=[0.25, 0.25, 0.5])
    u = rng.random(RUNS)
    return np.where(u < 0.5, 0.5, (rng.random(RUNS) < p).astype(float))


def _skewed(rng: np.random.Generator) -> np.ndarray:
    """Mean 0.5 from rare large wins and frequent small losses."""
    return np.where(rng.random(RUNS) < 0.2, 1.0, 0.375)


def _simulate(
    draw: Draw, seed: int, *, threshold: float = 0.0, width: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(decision code, cases used) per run: 0 undecided, 1 better, 2 worse, 3 within the
    margin, 4 futile. ``width``: replace the boundary by a constant-z one (a wrong one)."""
    rng = np.random.default_rng(seed)
    cs = SpendingCS(0.05, budget=BUDGET, sequences=RUNS)
    decision, used = np.zeros(RUNS, dtype=int), np.full(RUNS, BUDGET)
    open_ = np.ones(RUNS, dtype=bool)
    for t in range(1, BUDGET + 1):
        cs.update(draw(rng))
        lower, upper = cs.bounds()
        if width is not None:
            half = width * cs.sigma() / np.sqrt(t)
            lower, upper = cs.mean() - half, cs.mean() + half
        now = np.zeros(RUNS, dtype=int)
        now[(lower >= 0.5 - MARGIN) & (upper <= 0.5 + MARGIN)] = 3
        now[upper < 0.5 - MARGIN] = 2
        now[lower > 0.5] = 1
        if threshold:
            now[(now == 0) & futile(cs, MARGIN, threshold)] = 4
        hit = open_ & (now > 0)
        decision[hit], used[hit], open_[hit] = now[hit], t, False
    return decision, used


@pytest.mark.system  # thousands of simulated runs: seconds of CPU
@pytest.mark.parametrize(
    "draw",
    [
        _three([0.5, 0.0, 0.5]),
        _three([0.35, 0.3, 0.35]),
        _three([0.05, 0.9, 0.05]),
        _heterogeneous,
        _skewed,
    ],
    ids=["coin", "equal", "ties", "heterogeneous", "skewed"],
)
def test_false_better_between_equal_variants_is_at_most_alpha_over_two(draw: Draw) -> None:
    decision, _ = _simulate(draw, seed=1)
    assert np.mean(decision == 1) <= LIMIT


@pytest.mark.system  # thousands of simulated runs: seconds of CPU
def test_a_wrong_boundary_fails_the_same_check_and_the_right_one_spends_the_allowance() -> None:
    naive, _ = _simulate(_three([0.5, 0.0, 0.5]), seed=2, width=1.96)  # fixed-n z at every look
    assert np.mean(naive == 1) > LIMIT
    # constant z = c at every look (Pocock-like, not spent by information): also too loose
    pocock, _ = _simulate(_three([0.5, 0.0, 0.5]), seed=2, width=critical(0.05))
    assert np.mean(pocock == 1) > LIMIT
    right, _ = _simulate(_three([0.5, 0.0, 0.5]), seed=2)
    assert np.mean(right == 1) > 0.015  # spent by the budget, not kept for ever more cases


@pytest.mark.system  # thousands of simulated runs: seconds of CPU
def test_false_worse_at_the_margin_is_at_most_alpha_over_two() -> None:
    at_margin = _three([0.45, 0.2, 0.35])  # mean 0.45 = 0.5 - margin: not worse by more
    decision, _ = _simulate(at_margin, seed=3)
    assert np.mean(decision == 2) <= LIMIT


@pytest.mark.system  # thousands of simulated runs: seconds of CPU
def test_futility_adds_no_false_decision_and_saves_cases() -> None:
    equal = _three([0.35, 0.3, 0.35])
    plain, plain_used = _simulate(equal, seed=4)
    fut, fut_used = _simulate(equal, seed=4, threshold=0.02)
    decided = (fut > 0) & (fut < 4)
    assert np.all(fut[decided] == plain[decided])  # the same data: only "undecided" is added
    assert np.mean(fut == 1) <= np.mean(plain == 1)
    assert fut_used.mean() < 0.8 * plain_used.mean()  # equal variants stop early, undecided
    better = _three([0.25, 0.3, 0.45])
    power, _ = _simulate(better, seed=5)
    power_fut, _ = _simulate(better, seed=5, threshold=0.02)
    assert np.mean(power_fut == 1) >= np.mean(power == 1) - 0.03


def test_the_spending_function_spends_alpha_over_two_by_the_budget() -> None:
    fractions = [0.1, 0.25, 0.5, 0.75, 1.0]
    spending = [spent(0.05, s) for s in fractions]
    assert spending == sorted(spending) and spending[0] < 1e-4
    assert spending[-1] == pytest.approx(0.025) and spent(0.05, 0.0) == 0.0
    assert critical(0.05) == pytest.approx(2.2414, abs=1e-4)


def test_the_decision_chance_is_near_one_for_a_clear_effect_and_zero_at_the_budget() -> None:
    cs = SpendingCS(0.05, budget=100, sequences=2)
    for _ in range(30):
        cs.update([1.0, 0.5])  # a clear win; ties only
    chance = decision_chance(cs, MARGIN)
    assert chance[0] > 0.95 and chance[1] > 0.5  # ties settle "within the margin"
    for _ in range(70):
        cs.update([1.0, 0.5])
    assert np.all(decision_chance(cs, MARGIN) == 0.0)
    with pytest.raises(ValueError, match="budget of 100 cases is spent"):
        cs.update([1.0, 0.5])


def test_a_futile_stop_is_undecided_with_its_reason() -> None:
    stop = decide(0.3, 0.7, margin=0.05, seen=40, budget=200, futile=True)
    assert stop.settled and stop.decision == "undecided"
    assert stop.reason.startswith("undecided: more cases would not settle it")
    assert decide(0.55, 0.7, margin=0.05, seen=40, budget=200, futile=True).decision == "better"


def test_the_gate_question_counts_only_reaching_non_inferiority() -> None:
    cs = SpendingCS(0.05, budget=100, sequences=2)
    for _ in range(40):
        cs.update([0.5, 0.3])  # ties: not worse; a steady 0.3: worse, never non-inferior
    chance = decision_chance(cs, MARGIN, non_inferiority=True)
    assert chance[0] > 0.9 and chance[1] < 0.02
    assert futile(cs, MARGIN, 0.02, non_inferiority=True).tolist() == [False, True]
    assert not futile(cs, MARGIN, 0.02).any()  # three-way: the 0.3 run can still say "worse"

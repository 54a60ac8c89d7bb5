"""Adaptive pair choice: the Bradley-Terry fit, the rank-separation rule and the next pair,
against known strengths."""

from __future__ import annotations

import numpy as np
import pytest

from arena.sequential import AdaptiveLoop, AdaptiveState, next_pair, ranks_separated

pytestmark = pytest.mark.unit


def _state(strengths: list[float], per_pair: int, seed: int = 0) -> AdaptiveState:
    rng = np.random.default_rng(seed)
    state = AdaptiveState(len(strengths))
    for i in range(len(strengths)):
        for j in range(i + 1, len(strengths)):
            p = 1 / (1 + np.exp(strengths[j] - strengths[i]))
            for _ in range(per_pair):
                state.add(i, j, float(rng.random() < p))
    return state


def test_the_fit_recovers_known_strengths() -> None:
    truth = np.array([1.0, 0.5, 0.0, -0.5])
    theta, cov = _state(list(truth), 400).fit()
    assert np.allclose(theta - theta.mean(), truth - truth.mean(), atol=0.15)
    assert np.all(np.diag(cov) > 0)


def test_clear_ranks_separate_and_close_ones_do_not() -> None:
    assert ranks_separated(_state([2.0, 0.0, -0.2], 60), k=1)
    assert not ranks_separated(_state([0.05, 0.0, -0.1], 10), k=1)
    assert next_pair(_state([2.0, 0.0, -0.2], 60), k=1) is None


def test_the_next_pair_crosses_the_top_k_boundary() -> None:
    state = _state([1.5, 1.4, -1.0, -1.2], 6, seed=3)
    i, j = next_pair(state, k=1) or (-1, -1)
    assert {i, j} == {0, 1}  # the two contenders for first place
    assert next_pair(state, k=1, exclude={(0, 1)}) != (0, 1)


def test_an_unseen_variant_is_explored_first() -> None:
    state = AdaptiveState(3)
    state.add(0, 1, 1.0)
    assert 2 in (next_pair(state, k=1) or ())


def test_bad_battles_are_refused() -> None:
    state = AdaptiveState(2)
    with pytest.raises(ValueError):
        state.add(0, 0, 1.0)
    with pytest.raises(ValueError, match="two variants"):
        AdaptiveState(1)


def _loop_until_stop(loop: AdaptiveLoop, strengths: list[float], seed: int = 0) -> int:
    rng = np.random.default_rng(seed)
    while (pair := loop.next()) is not None:
        i, j = pair
        loop.record(pair, float(rng.random() < 1 / (1 + np.exp(strengths[j] - strengths[i]))))
    return loop.judged


def test_the_loop_uses_other_pairs_once_the_boundary_pair_runs_out() -> None:
    strengths = [0.3, 0.0, -1.0, -1.0]
    cases = {(i, j): 5 for i in range(4) for j in range(i + 1, 4)}
    loop = AdaptiveLoop(AdaptiveState(4), cases, top_k=1)
    judged = _loop_until_stop(loop, strengths)
    assert loop.left[(0, 1)] == 0  # the close pair used every case it had ...
    assert judged > 5 + 5  # ... and battles through common opponents came after
    assert not loop.separated and "settled as far as the evidence goes" in loop.reason
    assert judged == sum(cases.values()) - sum(loop.left.values())


def test_the_loop_stops_once_separated_or_at_the_budget() -> None:
    cases = {(i, j): 100 for i in range(3) for j in range(i + 1, 3)}
    loop = AdaptiveLoop(AdaptiveState(3), cases, top_k=1)
    _loop_until_stop(loop, [3.0, 0.0, 0.0])
    assert loop.separated and "separated" in loop.reason and loop.judged < 300
    capped = AdaptiveLoop(AdaptiveState(3), cases, top_k=1, budget=4)
    assert _loop_until_stop(capped, [0.1, 0.0, 0.0]) == 4 and "budget of 4" in capped.reason


def test_a_futility_stop_says_the_ranking_is_not_separated() -> None:
    strengths = [0.05, 0.0, -0.05]  # far too close for 20 cases a pair
    cases = {(i, j): 20 for i in range(3) for j in range(i + 1, 3)}
    hopeless = AdaptiveLoop(AdaptiveState(3), cases, top_k=1, futility=0.02)
    judged = _loop_until_stop(hopeless, strengths)
    assert not hopeless.separated and hopeless.reason.startswith("undecided: more cases")
    exhaustive = AdaptiveLoop(AdaptiveState(3), cases, top_k=1)  # the default: no futility
    assert judged < _loop_until_stop(exhaustive, strengths) == 60

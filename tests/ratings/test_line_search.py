"""The one Armijo line search of the Newton solvers: per problem, the longest of 1, 1/2,
1/4, ... that decreases the objective by the Armijo margin."""

from __future__ import annotations

import numpy as np
import pytest

from arena.ratings._line_search import armijo_steps

pytestmark = pytest.mark.unit


def test_each_problem_halves_its_step_until_the_objective_falls_enough() -> None:
    # Problem k after a step of length t: f0_k (1 - s_k t)^2, slope -2 f0_k s_k. The first
    # lands on the minimum at t = 1; the second is flat (t = 1 meets the 1e-12 slack); the
    # third overshoots five-fold: t = 1 and 1/2 increase it, t = 1/4 is the first accepted.
    scale = np.array([1.0, 1.0, 5.0])
    f0 = np.array([1.0, 0.0, 1.0])
    slope = np.array([-2.0, 0.0, -10.0])
    calls: list[list[int]] = []

    def objective(todo: np.ndarray, t: np.ndarray) -> np.ndarray:
        calls.append(todo.tolist())
        x = 1.0 - scale[todo] * t
        return f0[todo] * x**2

    steps = armijo_steps(f0, slope, objective)
    assert steps.tolist() == [1.0, 1.0, 0.25]
    assert calls == [[0, 1, 2], [2], [2]]  # only the problems not yet accepted are evaluated

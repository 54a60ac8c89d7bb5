"""The one Armijo line search of the Newton solvers, over many problems at once."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from arena.ratings._battle_arrays import FloatArray, IntArray

#: Halvings tried before a step length is accepted as it is (2**-60: no step at all).
MAX_HALVINGS = 60


def armijo_steps(
    f0: FloatArray,
    slope: FloatArray,
    objective: Callable[[IntArray, FloatArray], FloatArray],
) -> FloatArray:
    """Armijo step lengths, halving from 1, one per problem.

    ``f0`` is each problem's objective at the start and ``slope`` its directional derivative
    along the step; ``objective(todo, t)`` is the objective of problems ``todo`` after steps
    of length ``t``. A length is accepted once the objective falls by at least 1e-4 of the
    slope's promise (with a relative slack of 1e-12 for rounding).
    """
    t = np.ones(f0.shape[0])
    todo = np.arange(f0.shape[0])
    for _ in range(MAX_HALVINGS):
        f = objective(todo, t[todo])
        ok = f <= f0[todo] + 1e-4 * t[todo] * slope[todo] + 1e-12 * np.abs(f0[todo])
        todo = todo[~ok]
        if todo.size == 0:
            break
        t[todo] *= 0.5
    return t

"""Style covariates of battles: what a judge may reward besides quality.

A count covariate (answer ``length``, markdown ``headers``, ``lists``, ``bold``, or any count
the battles carry) enters as the antisymmetric ratio ``(a - b) / (a + b + 1)`` of the two
answers' counts, divided by its root-mean-square over the battles. It is deliberately **not
centred**: the model has no intercept, and subtracting the mean would act as one, so the
ratings would describe the models at the average difference instead of at equal style. The
average is far from zero whenever battles keep one seat order (the anchor, or the earlier
variant, always in seat A). Swapping the seats of a battle flips the sign of every count
covariate, so the fit does not depend on which model is called A.

The ``seat`` covariate is 1 in every battle: seat A's advantage, for instance a judge's
position preference. It is identifiable only when the pairings do not tie it to strength
(:func:`seat_identifiable`).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse import csgraph

from arena.ratings._battle_arrays import Battles, FloatArray

LENGTH = "length"
SEAT = "seat"
MARKDOWN_COUNTS: tuple[str, ...] = ("headers", "lists", "bold")
#: Aliases accepted wherever covariates are named ("markdown" = the three counts).
STYLE_ALIASES: dict[str, tuple[str, ...]] = {"markdown": MARKDOWN_COUNTS}


def count_ratio(count_a: FloatArray, count_b: FloatArray) -> FloatArray:
    """The raw antisymmetric feature ``(a - b) / (a + b + 1)`` in (-1, 1)."""
    a = np.asarray(count_a, dtype=np.float64)
    b = np.asarray(count_b, dtype=np.float64)
    return np.asarray((a - b) / (a + b + 1.0), dtype=np.float64)


def seat_identifiable(battles: Battles) -> bool:
    """Whether seat A's advantage can be told apart from the models' strengths.

    It cannot when some strengths ``p`` make ``p_a - p_b = 1`` in every battle (weight > 0):
    e.g. an anchor always in seat A, or two models that always sit the same way round. Then
    any seat effect is absorbed into the strengths. A pair seen in both seat orders, or a
    cycle such as A>B, B>C, A>C in fixed seats, makes it identifiable.
    """
    keep = battles.weight > 0.0
    m = battles.n_models
    directed = np.unique(battles.model_a[keep] * m + battles.model_b[keep])
    if directed.size == 0:
        return False
    da, db = directed // m, directed % m
    if np.intersect1d(directed, db * m + da).size:
        return True
    graph = sparse.csr_matrix((np.ones(da.size), (da, db)), shape=(m, m))
    n_comp, labels = csgraph.connected_components(graph, directed=False)
    potential = np.zeros(m)
    roots = np.unique(labels, return_index=True)[1]
    for root in roots[:n_comp]:
        order, pred = csgraph.breadth_first_order(
            graph, int(root), directed=False, return_predecessors=True
        )
        for v in order[1:]:
            u = pred[v]
            potential[v] = potential[u] + (-1.0 if graph[u, v] else 1.0)
    return not bool(np.allclose(potential[da] - potential[db], 1.0))


def style_problem(battles: Battles, names: tuple[str, ...]) -> str | None:
    """Why the covariates ``names`` cannot be fitted on ``battles``, or None if they can."""
    for name in names:
        if name != SEAT and battles.style_counts(name) is None:
            have = [LENGTH] if battles.len_a is not None else []
            have += list(battles.style_names)
            return (
                f"style covariate {name!r} needs per-answer {name} counts, which these battles "
                f"do not carry (they have: {', '.join(have) or 'none'})"
            )
    if SEAT in names and not seat_identifiable(battles):
        return (
            "the seat effect is not identifiable: with these pairings every model keeps its "
            "seat (e.g. an anchor always in seat A), so a seat preference cannot be told apart "
            "from strength; drop 'seat' or rate battles judged in mixed seat orders"
        )
    return None


def style_matrix(battles: Battles, names: tuple[str, ...]) -> tuple[FloatArray, FloatArray]:
    """(battles x covariates) design columns and each column's scale (RMS of the raw ratio).

    A count that never differs gives a zero column (scale 0): its coefficient stays 0.

    Raises:
        ValueError: with :func:`style_problem`'s reason.
    """
    problem = style_problem(battles, names)
    if problem:
        raise ValueError(problem)
    n = len(battles)
    cols = np.zeros((n, len(names)))
    scales = np.ones(len(names))
    for j, name in enumerate(names):
        counts = battles.style_counts(name)
        if counts is None:  # the seat
            cols[:, j] = 1.0
            continue
        raw = count_ratio(*counts)
        rms = float(np.sqrt(np.mean(raw * raw))) if n else 0.0
        scales[j] = rms
        if rms > 0.0:
            cols[:, j] = raw / rms
    return cols, scales

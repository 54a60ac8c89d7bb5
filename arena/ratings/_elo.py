"""Online Elo (battle order matters) and its order-independent median over shuffles."""

from __future__ import annotations

import numpy as np

from arena.ratings._battle_arrays import Battles, FloatArray, IntArray
from arena.ratings._bradley_terry import INITIAL
from arena.ratings._fit import RatingFit

K_FACTOR = 4.0
#: Seeded shuffles of the order-independent Elo.
DEFAULT_ELO_ROUNDS = 100
#: Largest number of battles that gets the Elo column without asking (about 0.2 s).
ELO_AUTO_MAX_BATTLES = 20_000
#: Elements per (battles x shuffles) array run in one lock-step pass.
_STEP_BUDGET = 2**23


def online_elo(
    battles: Battles,
    *,
    k: float = K_FACTOR,
    base: float = 10.0,
    scale: float = 400.0,
    initial: float = 1000.0,
) -> FloatArray:
    """Sequential Elo over battles in the given order (Chatbot Arena's ``compute_elo``).

    For each battle, A's expected score is ``1 / (1 + base ** ((r_b - r_a) / scale))`` and
    both ratings move by ``k * weight * (outcome - expected)`` (a tie is half a win).
    Returns ratings in ``battles.models`` order.
    """
    ratings = [float(initial)] * battles.n_models
    a_list = battles.model_a.tolist()
    b_list = battles.model_b.tolist()
    kw = (k * battles.weight).tolist()
    outcomes = battles.outcome.tolist()
    for a, b, step, score in zip(a_list, b_list, kw, outcomes, strict=True):
        ra, rb = ratings[a], ratings[b]
        expected = 1.0 / (1.0 + base ** ((rb - ra) / scale))
        delta = step * (score - expected)
        ratings[a] = ra + delta
        ratings[b] = rb - delta
    return np.asarray(ratings, dtype=np.float64)


def canonical_order(battles: Battles) -> Battles:
    """Battles sorted by (model_a, model_b, outcome, weight).

    Battles equal in all four are interchangeable for Elo, so any input order of the same
    multiset of battles maps to the same sequence.
    """
    order = np.lexsort((battles.weight, battles.outcome, battles.model_b, battles.model_a))
    return battles.select(order)


def elo_median_over_orderings(
    battles: Battles,
    *,
    rounds: int = DEFAULT_ELO_ROUNDS,
    seed: int = 0,
    k: float = K_FACTOR,
    base: float = 10.0,
    scale: float = 400.0,
    initial: float = 1000.0,
) -> FloatArray:
    """Order-independent Elo: per-model median of online Elo over ``rounds`` seeded shuffles.

    Battles are first put in a canonical order, so the result depends only on the multiset
    of battles and the seed, not on the order they were given in. All shuffles are run
    together: one vectorised update per battle position across every shuffle.
    """
    if rounds < 1:
        raise ValueError("rounds must be >= 1")
    m = battles.n_models
    n = len(battles)
    if n == 0:
        return np.full(m, float(initial))
    canon = canonical_order(battles)
    rng = np.random.default_rng(seed)
    chunk = max(1, _STEP_BUDGET // n)
    finals = []
    for first in range(0, rounds, chunk):
        perms = np.stack([rng.permutation(n) for _ in range(min(chunk, rounds - first))], axis=1)
        finals.append(_run_shuffles(canon, perms, k, base, scale, initial))
    ratings = np.concatenate(finals, axis=0)
    return np.asarray(np.median(ratings, axis=0), dtype=np.float64)


def _run_shuffles(
    canon: Battles, perms: IntArray, k: float, base: float, scale: float, initial: float
) -> FloatArray:
    """Online Elo for each column of ``perms`` (n x rounds), all columns in lock step."""
    m = canon.n_models
    n, rounds = perms.shape
    offsets = (np.arange(rounds) * m)[None, :]
    flat_a = np.ascontiguousarray(canon.model_a[perms] + offsets)
    flat_b = np.ascontiguousarray(canon.model_b[perms] + offsets)
    kw = np.ascontiguousarray((k * canon.weight)[perms])
    score = np.ascontiguousarray(canon.outcome[perms])
    ratings = np.full(rounds * m, float(initial))
    factor = np.log(base) / scale
    for t in range(n):
        ia = flat_a[t]
        ib = flat_b[t]
        expected = 1.0 / (1.0 + np.exp((ratings[ib] - ratings[ia]) * factor))
        delta = kw[t] * (score[t] - expected)
        ratings[ia] += delta
        ratings[ib] -= delta
    return ratings.reshape(rounds, m)


def anchored(ratings: FloatArray, battles: Battles, anchor: str | None) -> FloatArray:
    """Ratings shifted so ``anchor`` sits at 1000 (unchanged without an anchor)."""
    if anchor is None:
        return ratings
    return np.asarray(ratings - ratings[battles.index_of(anchor)] + INITIAL, dtype=np.float64)


def elo_median_fit(battles: Battles, medians: FloatArray, anchor: str | None) -> RatingFit:
    """The ``elo-median`` fit from already computed medians (anchored if asked)."""
    return RatingFit.point(battles.models, anchored(medians, battles, anchor))

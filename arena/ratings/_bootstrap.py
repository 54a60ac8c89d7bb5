"""Query-level bootstrap: 95% intervals for Bradley-Terry ratings and for a head-to-head win rate.

The resampling unit is the query: a bootstrap dataset draws queries with replacement and keeps
all battles of each drawn query. Nothing is refitted from raw battles: each query's
contribution to every pair's win and battle counts is precomputed once as a sparse
(pairs x queries) matrix, so a round's counts are one sparse product with its multinomial
query multiplicities, and all rounds are refitted together, warm-started from the point
estimate: by batched dense Newton for few models, by batched sparse Newton-CG (cost linear in
the number of model pairs, :mod:`arena.ratings._sparse_newton`) above 64.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
from scipy import sparse

from arena.defaults import BOOTSTRAP_ROUNDS
from arena.ratings._battle_arrays import Battles, FloatArray, IntArray
from arena.ratings._bradley_terry import (
    BASE,
    DEFAULT_REG,
    INITIAL,
    SCALE,
    fit_log_strengths,
    log_strength_to_elo,
    newton_fit_batch,
)
from arena.ratings._fit import RatingFit
from arena.ratings._intervals import bootstrap_interval
from arena.ratings._pair_counts import PairCounts, aggregate_pairs, unique_inverse
from arena.ratings._resampling import UnitTypes, query_multiplicities, type_multiplicities
from arena.ratings._round_starts import DENSE_MAX_MODELS, RoundStarts
from arena.ratings._round_workers import default_workers, solve_chunks
from arena.ratings._sparse_newton import PairGraph, chunk_columns, fit_columns

DEFAULT_ROUNDS = BOOTSTRAP_ROUNDS
#: Above this many models the batched dense Newton Hessians cost more than sparse Newton-CG.
_NEWTON_MAX_MODELS = 64
#: Step tolerance (nats) of the sparse point fit: its error is about the square of this.
_POINT_TOL = 1e-8
#: Plain percentile levels (the library's intervals use :mod:`arena.ratings._intervals`).
CI_PERCENTILES = (2.5, 97.5)


@dataclass(frozen=True)
class WinRate:
    """``model``'s win rate (tie = half) against ``opponent`` with a 95% query-bootstrap CI.

    All values are NaN when the two never met.
    """

    model: str
    opponent: str
    win_rate: float
    ci_low: float
    ci_high: float
    n_battles: int


def _single_battle_types(
    pair: IntArray, score: FloatArray, weight: FloatArray
) -> tuple[IntArray, IntArray]:
    """Group battles (each alone in its query) by (pair, score, weight).

    Returns each battle's group and one representative battle per group (all battles of a
    group contribute the same counts).
    """
    halves = 2.0 * score
    if np.all(weight == 1.0) and np.all(halves == np.round(halves)):
        _, group = unique_inverse(pair * 3 + halves.astype(np.int64))  # scores 0, 1/2, 1
    else:
        rows = np.stack([pair.astype(np.float64), score, weight], axis=1)
        group = np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1).astype(np.int64)
    representative = np.empty(int(group.max()) + 1 if group.size else 0, dtype=np.int64)
    representative[group] = np.arange(group.shape[0])
    return group, representative


def _query_pair_matrix(battles: Battles, counts: PairCounts) -> tuple[UnitTypes, sparse.csr_matrix]:
    """Resampling units (queries) grouped into types, and each type's contributions.

    The matrix is (2 * pairs x types): a query of that type adds to pair wins (rows
    0..P-1) and totals (rows P..2P-1), so a batch of type multiplicities turns into every
    pair's counts with a single sparse product. Queries holding a single battle are grouped
    by (pair, score, weight); every other query is a type of its own.
    """
    _, query = unique_inverse(battles.query)
    n_queries = int(query.max()) + 1 if query.size else 0
    size = np.bincount(query, minlength=n_queries)
    alone = np.flatnonzero(size[query] == 1)
    pair, score = counts.pair_of_battle, counts.score_lo
    if alone.size == 0:
        types, keep = UnitTypes.identity(n_queries), np.arange(query.shape[0])
    else:
        group, first = _single_battle_types(pair[alone], score[alone], battles.weight[alone])
        n_single = int(first.shape[0])
        unit_type = np.empty(n_queries, dtype=np.int64)
        unit_type[query[alone]] = group
        shared = np.flatnonzero(size > 1)
        unit_type[shared] = n_single + np.arange(shared.shape[0])
        types = UnitTypes(unit_type, np.bincount(unit_type, minlength=n_single + shared.size))
        keep = np.concatenate([alone[first], np.flatnonzero(size[query] > 1)])
    cols = types.unit_type[query[keep]]
    n_pairs = counts.lo.shape[0]
    rows = np.concatenate([pair[keep], pair[keep] + n_pairs])
    data = np.concatenate([score[keep], battles.weight[keep]])
    matrix = sparse.csr_matrix(
        (data, (rows, np.concatenate([cols, cols]))), shape=(2 * n_pairs, types.n_types)
    )
    return types, matrix


def _pair_counts_for(
    matrix: sparse.csr_matrix, matrix32: sparse.csr_matrix | None, mult: FloatArray, bound: float
) -> FloatArray:
    """(2 * pairs x rounds) wins over totals for a batch of (rounds x types) multiplicities.

    When every contribution is a multiple of 1/2 and no sum can reach 2**22, single
    precision is exact, and the memory-bound sparse product runs about twice as fast
    (the result is then single precision).
    """
    if matrix32 is not None and float(mult.max(initial=0.0)) * bound < 2.0**22:
        return np.asarray(matrix32 @ np.ascontiguousarray(mult.T, dtype=np.float32))
    return np.asarray(matrix @ np.ascontiguousarray(mult.T))


def _fit_rounds(
    counts: PairCounts,
    matrix: sparse.csr_matrix,
    matrix32: sparse.csr_matrix | None,
    mult: FloatArray,
    point: FloatArray,
    reg: float,
    solver: str,
    graph: PairGraph | None,
    starts: RoundStarts | None = None,
    workers: int = 1,
) -> FloatArray:
    """(rounds x models) refits for a batch of multiplicities, warm-started from ``point``
    or, given ``starts``, from each round's first-order step away from it."""
    bound = float(counts.total.max(initial=0.0))
    n_pairs, m = counts.lo.shape[0], counts.n_models
    if graph is not None:
        sparse_graph = graph

        # Resampled counts are made a budget-sized chunk at a time, in the (pairs x rounds)
        # layout the sparse solver works in, so no (rounds x pairs) copy is ever held.
        def solve(rows: slice) -> FloatArray:
            both = _pair_counts_for(matrix, matrix32, mult[rows], bound)
            start = point if starts is None else starts(mult[rows])
            return fit_columns(sparse_graph, both[:n_pairs], both[n_pairs:], reg, start).T

        out = np.empty((mult.shape[0], m))
        solve_chunks(solve, mult.shape[0], chunk_columns(n_pairs, m), out, workers)
        return out
    both = _pair_counts_for(matrix, matrix32, mult, bound).T.astype(np.float64)
    wins, total = both[:, :n_pairs], both[:, n_pairs:]
    if solver == "newton":
        return newton_fit_batch(counts.lo, counts.hi, wins, total, m, reg, point)
    return np.array(
        [
            fit_log_strengths(replace(counts, wins_lo=w, total=t), reg=reg, x0=point, polish=False)
            for w, t in zip(wins, total, strict=True)
        ]
    ).reshape(-1, m)


def bootstrap_bradley_terry(
    battles: Battles,
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    anchor: str | None = None,
    reg: float = DEFAULT_REG,
    solver: Literal["auto", "newton", "sparse", "lbfgs"] = "auto",
    scale: float = SCALE,
    base: float = BASE,
    initial: float = INITIAL,
    workers: int | None = None,
) -> RatingFit:
    """Bradley-Terry ratings with 95% intervals from a seeded query bootstrap.

    ``rating`` is the point estimate on all battles (the penalised MLE of
    :func:`bradley_terry`). ``solver`` picks how it and the rounds are fitted: batched damped
    Newton with dense Hessians (the default up to 64 models), batched sparse Newton-CG
    (:mod:`~arena.ratings._sparse_newton`, the default above: time and memory linear in the
    number of model pairs) or scipy L-BFGS-B per round; rounds are warm-started from the
    point estimate. The bounds are corrected for the number of queries
    (:func:`~arena.ratings._intervals.bootstrap_interval`), which keeps small arenas'
    intervals honest; memory stays within
    :data:`~arena.ratings._resampling.RESAMPLE_BUDGET` however many queries there are.
    Sparse rounds are refitted on ``workers`` threads (default: one per core,
    :func:`~arena.ratings._round_workers.default_workers`); the result is the same, bit for
    bit, whatever the number of workers.
    """
    if rounds < 1:
        raise ValueError("rounds must be >= 1")
    if workers is not None and workers < 1:
        raise ValueError("workers must be >= 1")
    n_workers = default_workers() if workers is None else workers
    anchor_index = None if anchor is None else battles.index_of(anchor)
    counts = aggregate_pairs(battles)
    m = battles.n_models
    if solver == "auto":
        solver = "newton" if m <= _NEWTON_MAX_MODELS else "sparse"
    graph = PairGraph(counts.lo, counts.hi, m) if solver == "sparse" else None
    if solver == "newton":
        # The same penalised MLE as bradley_terry(), by the solver used for the rounds.
        pair_counts = (counts.wins_lo[None, :], counts.total[None, :])
        point = newton_fit_batch(counts.lo, counts.hi, *pair_counts, m, reg, np.zeros(m))[0]
    elif graph is not None:
        columns = (counts.wins_lo[:, None], counts.total[:, None])
        point = fit_columns(graph, *columns, reg, np.zeros(m), tol=_POINT_TOL)[:, 0]
    else:
        point = fit_log_strengths(counts, reg=reg)
    rng = np.random.default_rng(seed)
    samples = np.empty((rounds, m))
    done = 0
    n_units = 0
    if len(battles) == 0:
        samples[:] = point
    else:
        types, matrix = _query_pair_matrix(battles, counts)
        n_units = types.n_units
        halves = matrix.data * 2.0
        exact32 = bool(np.all(halves == np.round(halves)))
        matrix32 = matrix.astype(np.float32) if exact32 else None
        starts = None
        if graph is not None and m <= DENSE_MAX_MODELS:
            starts = RoundStarts(counts, matrix, point, reg)
        for mult in type_multiplicities(types, rounds, rng):
            rows = slice(done, done + mult.shape[0])
            samples[rows] = _fit_rounds(
                counts, matrix, matrix32, mult, point, reg, solver, graph, starts, n_workers
            )
            done += mult.shape[0]
    rating, sample_ratings = (
        log_strength_to_elo(s, anchor_index=anchor_index, scale=scale, base=base, initial=initial)
        for s in (point, samples)
    )
    low, high = bootstrap_interval(sample_ratings, n_units, point=rating)
    return RatingFit(battles.models, rating, low, high, sample_ratings)


def head_to_head(battles: Battles, model: str, opponent: str) -> tuple[int, FloatArray, FloatArray]:
    """The battles between the two (either seat): their count, and per query holding them
    ``model``'s weighted score (tie = half) and the weight (empty arrays when none)."""
    i, j = battles.index_of(model), battles.index_of(opponent)
    if i == j:
        raise ValueError("model and opponent must differ")
    as_a = (battles.model_a == i) & (battles.model_b == j)
    mask = as_a | ((battles.model_a == j) & (battles.model_b == i))
    w = battles.weight[mask]
    score = w * np.where(as_a[mask], battles.outcome[mask], 1.0 - battles.outcome[mask])
    _, query = np.unique(battles.query[mask], return_inverse=True)
    query = query.reshape(-1)
    size = int(query.max()) + 1 if len(query) else 0
    score_q = np.bincount(query, weights=score, minlength=size).astype(float)
    weight_q = np.bincount(query, weights=w, minlength=size).astype(float)
    return int(mask.sum()), score_q, weight_q


def bootstrap_win_rate(
    battles: Battles,
    model: str,
    opponent: str,
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
) -> WinRate:
    """``model``'s weighted win rate against ``opponent`` (tie = half) with a 95% CI.

    Only battles between the two count (either seat); the queries holding them are
    resampled with replacement ``rounds`` times (seeded); the interval is
    :func:`~arena.ratings._intervals.bootstrap_interval` for that many queries.
    """
    if rounds < 1:
        raise ValueError("rounds must be >= 1")
    n, score_q, weight_q = head_to_head(battles, model, opponent)
    if n == 0 or weight_q.sum() <= 0.0:
        nan = float("nan")
        return WinRate(model, opponent, nan, nan, nan, n)
    n_queries = len(score_q)
    rng = np.random.default_rng(seed)
    rates = []
    for mult in query_multiplicities(n_queries, rounds, rng):
        with np.errstate(invalid="ignore", divide="ignore"):
            rates.append((mult @ score_q) / (mult @ weight_q))
    point = float(score_q.sum() / weight_q.sum())
    low, high = bootstrap_interval(np.concatenate(rates), n_queries, point=point, limits=(0, 1))
    return WinRate(model, opponent, point, float(low), float(high), n)

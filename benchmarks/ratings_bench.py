"""Benchmark: arena.ratings Bradley-Terry + query bootstrap vs a raw-row logistic regression.

Run:  python -m benchmarks ratings_bench [--battles N] [--models M] [--rounds R]
      python -m benchmarks ratings_bench --models-axis 50,300,1000,3000,10000  (see ratings_scale)
      python -m benchmarks ratings_bench --queries-axis 50,500,5000,20000 --axis-battles 300000
          [--axis-models 1000] [--cases-repeats 100x3] [--old-tree DIR] [--markdown]
          (see ratings_queries)

Battles are simulated from known Bradley-Terry strengths (seeded, 10% ties, query ids).
"Ours" is ``arena.ratings.bootstrap_bradley_terry``: pair counts, L-BFGS-B point fit, then
all bootstrap rounds refitted from sparse (pairs x queries) contributions by batched Newton.
The reference fits the same penalised model the way FastChat's Elo analysis once did: a
logistic regression over raw battle rows (one +1/-1 design row per battle, a tie as two
half-weight rows), minimised by scipy L-BFGS-B from scratch, and each bootstrap round
materialises the rows of the resampled queries and refits. The reference uses the same
query multiplicities as ours, so its rounds are checked against ours one for one. When its
full bootstrap would take too long, a few rounds are timed and extrapolated linearly.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TypeVar

# Single-threaded BLAS for both sides, unless overridden: on a busy machine OpenBLAS worker
# threads spin and make scipy's L-BFGS-B (used by the reference and by our point fit) many
# times slower and the timings erratic. Must be set before numpy/scipy load OpenBLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from scipy import optimize, sparse

from arena.ratings import (
    DEFAULT_REG,
    Battles,
    bootstrap_bradley_terry,
    bradley_terry,
    log_strength_to_elo,
    query_multiplicities,
)
from benchmarks.common import simulate_battles, timer

T = TypeVar("T")


class RawRows:
    """FastChat-style raw design: one row per battle (two half-weight rows per tie)."""

    def __init__(self, battles: Battles) -> None:
        side = np.concatenate([battles.outcome, 1.0 - battles.outcome])
        keep = side > 0.0
        n = len(battles)
        battle = np.concatenate([np.arange(n), np.arange(n)])[keep]
        order = np.argsort(battles.query[battle], kind="stable")
        battle = battle[order]
        self.y = np.concatenate([np.ones(n), np.zeros(n)])[keep][order]
        self.w = side[keep][order] * battles.weight[battle]
        rows = np.arange(battle.size)
        self.x = sparse.csr_matrix(
            (
                np.concatenate([np.ones(battle.size), -np.ones(battle.size)]),
                (
                    np.concatenate([rows, rows]),
                    np.concatenate([battles.model_a[battle], battles.model_b[battle]]),
                ),
            ),
            shape=(battle.size, battles.n_models),
        )
        _, query = np.unique(battles.query[battle], return_inverse=True)
        self.lengths = np.bincount(query.reshape(-1))
        self.starts = np.concatenate([[0], np.cumsum(self.lengths)[:-1]])

    def resample(self, mult: np.ndarray) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
        """Materialise the rows of the drawn queries (with repeats), like df.sample()."""
        drawn = np.repeat(np.arange(mult.size), mult.astype(np.int64))
        lengths = self.lengths[drawn]
        offsets = np.repeat(self.starts[drawn] - np.cumsum(lengths) + lengths, lengths)
        idx = offsets + np.arange(lengths.sum())
        return self.x[idx], self.y[idx], self.w[idx]


def reference_fit(x: sparse.csr_matrix, y: np.ndarray, w: np.ndarray, reg: float) -> np.ndarray:
    """Penalised logistic regression on raw rows by L-BFGS-B from zero (log-strengths)."""
    norm = float(w.sum())
    xt = x.T.tocsr()

    def fun(beta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ beta
        f = w @ (np.logaddexp(0.0, z) - y * z) + 0.5 * reg * beta @ beta
        g = xt @ (w * (1.0 / (1.0 + np.exp(-z)) - y)) + reg * beta
        return float(f) / norm, g / norm

    opts = {"maxiter": 20_000, "ftol": 1e-15, "gtol": 1e-10, "maxcor": 20}
    res = optimize.minimize(fun, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B", options=opts)
    beta = np.asarray(res.x)
    return beta - beta.mean()


def best_of(fn: Callable[[], T], repeats: int) -> tuple[float, T]:
    """Minimum wall time over ``repeats`` calls, and the last result."""
    times = []
    for _ in range(repeats):
        with timer() as took:
            result = fn()
        times.append(took.wall)
    return min(times), result


def bench(
    n: int, m: int, n_queries: int, rounds: int, ref_rounds: int, seed: int, repeats: int
) -> None:
    print(f"== {n:,} battles, {m} models, {n_queries:,} queries, {rounds} bootstrap rounds ==")
    battles = simulate_battles(n, m, n_queries, seed)
    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    print(f"(ours: best of {repeats} runs; reference: one run; OPENBLAS_NUM_THREADS={threads})")

    t_fit, point = best_of(lambda: bradley_terry(battles), repeats)
    t_ours, ours = best_of(
        lambda: bootstrap_bradley_terry(battles, rounds=rounds, seed=seed), repeats
    )
    print(f"ours: BT point fit (L-BFGS-B)              {t_fit:8.3f} s")
    print(f"ours: BT fit + {rounds}-round query bootstrap  {t_ours:8.3f} s")
    if rounds > 100:
        t_100, _ = best_of(lambda: bootstrap_bradley_terry(battles, rounds=100, seed=seed), repeats)
        print(f"ours: BT fit + 100-round query bootstrap   {t_100:8.3f} s")
    if ref_rounds == 0:
        print()
        return

    raw = RawRows(battles)
    with timer() as took:
        ref_point = log_strength_to_elo(reference_fit(raw.x, raw.y, raw.w, DEFAULT_REG))
    t_ref_fit = took.wall
    n_ref = min(ref_rounds, rounds)
    mult = next(query_multiplicities(n_queries, n_ref, np.random.default_rng(seed)))
    with timer() as took:
        ref_samples = np.array(
            [log_strength_to_elo(reference_fit(*raw.resample(c), DEFAULT_REG)) for c in mult]
        )
    t_ref_rounds = took.wall
    t_ref = t_ref_fit + t_ref_rounds * rounds / n_ref
    point_diff = float(np.abs(point - ref_point).max())
    round_diff = float(np.abs(ours.samples[:n_ref] - ref_samples).max())
    print(f"reference: raw-row logistic regression fit {t_ref_fit:8.3f} s")
    label = "measured" if n_ref == rounds else f"EXTRAPOLATED from {n_ref} timed rounds"
    print(f"reference: fit + {rounds}-round bootstrap    {t_ref:8.1f} s  ({label})")
    print(f"speedup (reference / ours), fit + bootstrap: {t_ref / t_ours:8.1f}x")
    print(f"point ratings: max |ours - reference| = {point_diff:.2e} Elo")
    print(f"first {n_ref} bootstrap rounds: max |ours - reference| = {round_diff:.2e} Elo")
    print(
        f"95% CI half-width (median over models): "
        f"{float(np.median(ours.ci_high - ours.ci_low)) / 2:.2f} Elo"
    )
    assert point_diff < 0.01, point_diff
    assert round_diff < 0.01, round_diff
    print()


def main(argv: list[str] | None = None) -> None:
    """Parse the flags and run the benchmark, or one of its axes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1_000_000)
    parser.add_argument("--models", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=20_000)
    parser.add_argument("--ref-rounds", type=int, default=10, help="reference rounds to time")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of ours (best)")
    parser.add_argument("--small-battles", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    axis = parser.add_argument_group("models axis (ratings_scale.py: ours vs choix vs FastChat)")
    axis.add_argument("--models-axis", help="comma-separated model counts, e.g. 50,300,1000")
    axis.add_argument("--axis-battles", type=int, default=1_000_000)
    axis.add_argument("--timeout", type=float, default=600.0, help="seconds per method run")
    axis.add_argument("--fastchat-rounds", type=int, default=4, help="FastChat rounds to time")
    queries = parser.add_argument_group("queries axis (ratings_queries.py: few golden cases)")
    queries.add_argument("--queries-axis", help="comma-separated query counts, e.g. 50,500,20000")
    queries.add_argument("--axis-models", type=int, default=1000)
    queries.add_argument("--cases-repeats", help="also CASESxREPEATS, e.g. 100x3")
    queries.add_argument("--old-tree", help="a checkout of the old code (e.g. main) to run too")
    queries.add_argument("--markdown", action="store_true", help="also print the docs table")
    args = parser.parse_args(argv)
    if args.queries_axis:
        from benchmarks.ratings_queries import queries_axis

        cases = tuple(int(v) for v in args.cases_repeats.split("x")) if args.cases_repeats else None
        queries_axis(
            [int(v) for v in args.queries_axis.split(",")],
            args.axis_models,
            args.axis_battles,
            args.rounds,
            args.seed,
            args.timeout,
            args.fastchat_rounds,
            cases,  # type: ignore[arg-type]
            args.old_tree,
            args.markdown,
        )
        return
    if args.models_axis:
        from benchmarks.ratings_scale import models_axis

        sizes = [int(v) for v in args.models_axis.split(",")]
        models_axis(
            sizes, args.axis_battles, args.rounds, args.seed, args.timeout, args.fastchat_rounds
        )
        return
    # warm-up: first-call imports and caches are not part of the measured fits
    warm = simulate_battles(2_000, 5, 100, args.seed)
    bradley_terry(warm)
    bootstrap_bradley_terry(warm, rounds=10)
    bench(
        args.battles,
        args.models,
        args.queries,
        args.rounds,
        args.ref_rounds,
        args.seed,
        args.repeats,
    )
    if args.small_battles:
        small_queries = max(1, args.queries * args.small_battles // args.battles)
        bench(
            args.small_battles,
            args.models,
            small_queries,
            args.rounds,
            args.ref_rounds,
            args.seed,
            args.repeats,
        )


if __name__ == "__main__":
    main()

"""Simulation study: which 95% interval covers in small arenas (8-30 queries)?

Run:  python -m benchmarks ratings_coverage [--arenas N] [--rounds B]

Arenas are simulated from known Bradley-Terry strengths with query effects (every query shifts
each model's strength by its own normal draw, so battles on one query are correlated) and
ties; each query holds every pair of models judged in both seat orders. The target of an
interval is the population rating: the Bradley-Terry fit to the expected outcomes of
infinitely many queries (query effects and ties attenuate it towards the mean, so this, not
the raw strength, is what the estimator converges to). Every method below gets the same
query-bootstrap rounds (the library's multiplicities and batched Newton fits) and is scored on
the fraction of (arena, model) intervals holding the truth, and on the compare verdict's false
"better" rate (two equally strong variants; "better" when the win-rate interval is above 0.5).

Methods: percentile (the library's old interval), expanded percentile (Hesterberg: percentile
levels widened to match a t interval with n - 1 degrees of freedom and the sqrt(n / (n - 1))
bootstrap bias), bootstrap-t with the bootstrap SE, BCa (jackknife over queries), and the
Bayesian bootstrap (Dirichlet query weights, percentile).
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from scipy import stats

from arena.ratings import DEFAULT_REG, log_strength_to_elo, newton_fit_batch, query_multiplicities
from benchmarks.common import timer

STRENGTHS = np.array([-0.45, -0.15, 0.15, 0.45])
QUERY_SD = 0.8
TIE_PROB = 0.25
M = STRENGTHS.size
LO, HI = np.triu_indices(M, 1)


def simulate_scores(
    arenas: int, queries: int, rng: np.random.Generator, strengths: np.ndarray
) -> np.ndarray:
    """(arenas, queries, pairs) score of the lower-index model over two seat orders (of 2)."""
    u = rng.normal(0.0, QUERY_SD, (arenas, queries, M))
    d = strengths[LO] - strengths[HI] + u[..., LO] - u[..., HI]
    p = 1.0 / (1.0 + np.exp(-d))
    score = np.zeros(d.shape)
    for _ in range(2):  # both seat orders
        tie = rng.random(d.shape) < TIE_PROB
        score += np.where(tie, 0.5, (rng.random(d.shape) < p).astype(float))
    return score


def population_elo(strengths: np.ndarray) -> np.ndarray:
    """The BT ratings the estimator converges to (expected outcomes of endless queries)."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(80)
    d = strengths[LO] - strengths[HI]
    sd = np.sqrt(2.0) * QUERY_SD
    win = (weights[None, :] / weights.sum() / (1.0 + np.exp(-(d[:, None] + sd * nodes)))).sum(1)
    expected = TIE_PROB * 0.5 + (1.0 - TIE_PROB) * win
    s = newton_fit_batch(LO, HI, expected[None], np.ones((1, LO.size)), M, 1e-12, np.zeros(M))
    return log_strength_to_elo(s[0])


def fit(wins: np.ndarray, total: np.ndarray) -> np.ndarray:
    """Elo ratings (rows x models) of BT fits with the library's prior."""
    rows = wins.reshape(-1, LO.size)
    tot = np.broadcast_to(total, wins.shape).reshape(-1, LO.size)
    s = newton_fit_batch(LO, HI, rows, tot, M, DEFAULT_REG, np.zeros(M))
    return log_strength_to_elo(s).reshape(*wins.shape[:-1], M)


def boot_weights(arenas: int, queries: int, rounds: int, seed: int, bayes: bool) -> np.ndarray:
    """(arenas, rounds, queries) query multiplicities (or Dirichlet weights x queries)."""
    rng = np.random.default_rng(seed)
    if bayes:
        return rng.dirichlet(np.ones(queries), size=(arenas, rounds)) * queries
    return np.stack(
        [next(query_multiplicities(queries, rounds, rng, chunk=rounds)) for _ in range(arenas)]
    )


def expanded_levels(n: int) -> tuple[float, float]:
    """Hesterberg's expanded percentile levels for n resampled units."""
    if n < 2:
        return 0.0, 100.0
    alpha = stats.norm.cdf(-np.sqrt(n / (n - 1.0)) * stats.t.ppf(0.975, n - 1))
    return 100.0 * alpha, 100.0 * (1.0 - alpha)


def intervals(
    point: np.ndarray, samples: np.ndarray, jack: np.ndarray, bayes: np.ndarray, n: int
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each method's (low, high), (arenas x models)."""
    out = {"percentile": tuple(np.percentile(samples, [2.5, 97.5], axis=1))}
    lo_pct, hi_pct = expanded_levels(n)
    out["expanded percentile"] = tuple(np.percentile(samples, [lo_pct, hi_pct], axis=1))
    half = stats.t.ppf(0.975, n - 1) * samples.std(axis=1, ddof=1) * np.sqrt(n / (n - 1.0))
    out["bootstrap-t (SE)"] = (point - half, point + half)
    exp_low, exp_high = out["expanded percentile"]
    out["wider of both"] = (np.minimum(exp_low, point - half), np.maximum(exp_high, point + half))
    frac = (samples < point[:, None]).mean(axis=1) + 0.5 * (samples == point[:, None]).mean(1)
    z0 = stats.norm.ppf(np.clip(frac, 1e-6, 1 - 1e-6))
    dev = jack.mean(axis=1, keepdims=True) - jack
    acc = (dev**3).sum(1) / (6.0 * np.maximum((dev**2).sum(1), 1e-300) ** 1.5)
    bounds = []
    for z in stats.norm.ppf([0.025, 0.975]):
        level = stats.norm.cdf(z0 + (z0 + z) / (1.0 - acc * (z0 + z)))
        flat = samples.transpose(0, 2, 1).reshape(-1, samples.shape[1])
        q = np.array(
            [np.percentile(r, 100 * lv) for r, lv in zip(flat, level.ravel(), strict=True)]
        )
        bounds.append(q.reshape(level.shape))
    out["BCa"] = (bounds[0], bounds[1])
    out["Bayesian bootstrap"] = tuple(np.percentile(bayes, [2.5, 97.5], axis=1))
    return out


def coverage_study(arenas: int, queries: int, rounds: int, seed: int) -> dict[str, float]:
    """Each method's coverage over ``arenas`` arenas, simulated in blocks."""
    block = max(1, min(arenas, 2_000_000 // (rounds * queries)))
    hits: dict[str, list[np.ndarray]] = {}
    for first in range(0, arenas, block):
        size = min(block, arenas - first)
        for name, hit in _coverage_block(size, queries, rounds, seed + 7919 * first).items():
            hits.setdefault(name, []).append(hit)
    return {name: float(np.concatenate(h).mean()) for name, h in hits.items()}


def _coverage_block(arenas: int, queries: int, rounds: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = population_elo(STRENGTHS)
    score = simulate_scores(arenas, queries, rng, STRENGTHS)
    total = np.full(LO.size, 2.0)
    point = fit(score.sum(axis=1), total * queries)
    mult = boot_weights(arenas, queries, rounds, seed + 1, bayes=False)
    samples = fit(np.einsum("abq,aqp->abp", mult, score), total * mult.sum(-1, keepdims=True))
    dirich = boot_weights(arenas, queries, rounds, seed + 2, bayes=True)
    bayes = fit(np.einsum("abq,aqp->abp", dirich, score), total * dirich.sum(-1, keepdims=True))
    leave = 1.0 - np.eye(queries)  # jackknife: every query left out once
    jack = fit(np.einsum("jq,aqp->ajp", leave, score), total * (queries - 1.0))
    return {
        name: ((low <= truth) & (truth <= high)).ravel()
        for name, (low, high) in intervals(point, samples, jack, bayes, queries).items()
    }


def better_rate(
    comparisons: int, queries: int, rounds: int, seed: int, shift: float = 0.0
) -> dict[str, float]:
    """How often the compare verdict says "better" (win-rate interval above 0.5) when the
    candidate is ``shift`` nats stronger (0: equal variants, the false "better" rate)."""
    block = max(1, min(comparisons, 4_000_000 // (rounds * queries)))
    counts: dict[str, float] = {}
    for first in range(0, comparisons, block):
        size = min(block, comparisons - first)
        block_seed = seed + 7919 * first
        for name, hits in _better_block(size, queries, rounds, block_seed, shift).items():
            counts[name] = counts.get(name, 0.0) + hits
    return {name: hits / comparisons for name, hits in counts.items()}


def _better_block(
    comparisons: int, queries: int, rounds: int, seed: int, shift: float
) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    u = rng.normal(0.0, QUERY_SD, (comparisons, queries, 2))
    p = 1.0 / (1.0 + np.exp(-(shift + u[..., 0] - u[..., 1])))
    score = np.zeros(p.shape)
    for _ in range(2):
        tie = rng.random(p.shape) < TIE_PROB
        score += np.where(tie, 0.5, (rng.random(p.shape) < p).astype(float))
    mult = boot_weights(comparisons, queries, rounds, seed + 1, bayes=False)
    rates = np.einsum("abq,aq->ab", mult, score) / (2.0 * mult.sum(-1))
    out = {"percentile": float((np.percentile(rates, 2.5, axis=1) > 0.5).sum())}
    lo_pct, _ = expanded_levels(queries)
    out["expanded percentile"] = float((np.percentile(rates, lo_pct, axis=1) > 0.5).sum())
    point = score.sum(axis=1) / (2.0 * queries)
    half = (
        stats.t.ppf(0.975, queries - 1)
        * rates.std(axis=1, ddof=1)
        * np.sqrt(queries / (queries - 1.0))
    )
    out["bootstrap-t (SE)"] = float((point - half > 0.5).sum())
    wider = np.minimum(np.percentile(rates, lo_pct, axis=1), point - half)
    out["wider of both"] = float((wider > 0.5).sum())
    return out


def main(argv: list[str] | None = None) -> None:
    """Parse the flags and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arenas", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--queries", type=int, nargs="+", default=[5, 8, 10, 15, 30, 100])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with timer() as took:
        print(
            f"{args.arenas} arenas per row, {M} models x {LO.size} pairs x 2 seat orders per "
            "query, "
            f"query-effect sd {QUERY_SD}, {TIE_PROB:.0%} ties, {args.rounds} bootstrap rounds; "
            "nominal 95%"
        )
        rows = {q: coverage_study(args.arenas, q, args.rounds, args.seed + q) for q in args.queries}
        methods = list(next(iter(rows.values())))
        print("\ncoverage of the population rating (fraction of arena x model intervals)")
        print(f"{'queries':>8} " + " ".join(f"{m:>20}" for m in methods))
        for q, row in rows.items():
            print(f"{q:>8} " + " ".join(f"{row[m]:>20.3f}" for m in methods))
        for shift, title in (
            (0.0, "equal variants: false 'better' rate (nominal 2.5%)"),
            (0.5, "candidate 0.5 nats (87 Elo) stronger: 'better' rate (power)"),
        ):
            print(f"\ncompare verdict, {title}")
            table = {
                q: better_rate(4 * args.arenas, q, args.rounds, args.seed + 1000 + q, shift)
                for q in args.queries
            }
            names = list(next(iter(table.values())))
            print(f"{'queries':>8} " + " ".join(f"{m:>20}" for m in names))
            for q, row in table.items():
                print(f"{q:>8} " + " ".join(f"{row[m]:>20.4f}" for m in names))
    print(f"\n({took.wall:.0f} s)")


if __name__ == "__main__":
    main()

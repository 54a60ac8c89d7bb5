"""Spend less to decide: the sequential comparison and adaptive judging against known truth.

Part 1, a candidate against a baseline on a golden set of ``--cases`` cases. Each case's
outcome is the candidate's judged win share (1 win, 0.5 tie, 0 loss), drawn from a known
truth; every method decides better / worse (by more than ``--margin``) / non-inferior (within
the margin) / inconclusive:

- (a) fixed: every case, then the 95% normal interval of the mean (what the tool did);
- (b) naive peeking: the same interval after every case (from the 10th), stop once decided;
- (c) sequential: the betting confidence sequence (arena.sequential) after every case.

It prints, per true effect, the mean and 90th-percentile cases and judge calls (two per
case, both orders) to a decision and the error rates: false "better" when the candidate is
not better, false "worse" when it is not worse by the margin, and power (the right decision).

Part 2, ranking 8 variants on ``--rank-cases`` cases: all-pairs judging (every pair on every
case) against adaptive judging (arena.sequential.next_pair) stopping once the top k are
separated, or at half the all-pairs battles: judge calls and how often the true top-1 / top-3
is found.

    python benchmarks/sequential_bench.py            # several minutes on one core
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.stats import norm

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from arena.sequential import AdaptiveState, BettingCS, next_pair  # noqa: E402


@dataclass(frozen=True)
class Truth:
    """A true effect: how a case's outcome is drawn."""

    name: str
    mean: float
    win: float = 0.0
    tie: float = 0.0
    mixed: tuple[float, float] | None = None
    """Per-case effects: half the cases won with the first probability, half the second."""

    def draw(self, rng: np.random.Generator, runs: int, cases: int) -> np.ndarray:
        """Outcomes, one row per simulated golden set."""
        if self.mixed is not None:
            p = np.where(rng.random((runs, cases)) < 0.5, *self.mixed)
            return (rng.random((runs, cases)) < p).astype(float)
        u = rng.random((runs, cases))
        return np.where(u < self.win, 1.0, np.where(u < self.win + self.tie, 0.5, 0.0))


GRID_OF_TRUTHS = [
    Truth("equal", 0.5, win=0.35, tie=0.30),
    Truth("slightly better", 0.6, win=0.45, tie=0.30),
    Truth("clearly worse", 0.2, win=0.10, tie=0.20),
    Truth("mixed per case", 0.55, mixed=(0.8, 0.3)),
    Truth("ties", 0.5, win=0.05, tie=0.90),
]


def _decide(lo: np.ndarray, hi: np.ndarray, margin: float) -> np.ndarray:
    """0 undecided, 1 better, 2 worse, 3 non-inferior (within the margin either way)."""
    out = np.zeros(lo.shape, dtype=int)
    out[(lo >= 0.5 - margin) & (hi <= 0.5 + margin)] = 3
    out[hi < 0.5 - margin] = 2
    out[lo > 0.5] = 1
    return out


def _normal(x: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    head = x[:, :n]
    mean, se = head.mean(axis=1), head.std(axis=1, ddof=1) / np.sqrt(n)
    z = norm.ppf(0.975)
    return mean - z * se, mean + z * se


def simulate(truth: Truth, runs: int, cases: int, margin: float, seed: int) -> dict[str, tuple]:
    """(decision, cases used) per run for each method."""
    x = truth.draw(np.random.default_rng(seed), runs, cases)
    fixed = _decide(*_normal(x, cases), margin)
    peek_d, peek_n = np.zeros(runs, dtype=int), np.full(runs, cases)
    seq_d, seq_n = np.zeros(runs, dtype=int), np.full(runs, cases)
    cs = BettingCS(0.05, sequences=runs, grid=400, horizon=cases // 2)  # as arena does
    open_peek, open_seq = np.ones(runs, dtype=bool), np.ones(runs, dtype=bool)
    for t in range(cases):
        cs.update(x[:, t])
        lo, hi = cs.bounds()
        now = _decide(lo, hi, margin)
        hit = open_seq & (now > 0)
        seq_d[hit], seq_n[hit], open_seq[hit] = now[hit], t + 1, False
        if t + 1 >= 10:
            now = _decide(*_normal(x, t + 1), margin)
            hit = open_peek & (now > 0)
            peek_d[hit], peek_n[hit], open_peek[hit] = now[hit], t + 1, False
    return {
        "fixed": (fixed, np.full(runs, cases)),
        "naive peeking": (peek_d, peek_n),
        "sequential": (seq_d, seq_n),
    }


def part_one(args: argparse.Namespace) -> None:
    print(
        f"## Part 1: candidate vs baseline, {args.cases} cases, margin {args.margin}, "
        f"alpha 0.05 (false 'better' <= 2.5%), {args.runs} simulated golden sets per truth\n"
    )
    print(
        "| truth (mean win share) | method | mean cases | p90 cases | mean judge calls | "
        "p90 judge calls | false better | false worse | power |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    saved: dict[str, list[float]] = {"naive peeking": [], "sequential": []}
    worst_extra = 0
    for k, truth in enumerate(GRID_OF_TRUTHS):
        results = simulate(truth, args.runs, args.cases, args.margin, seed=args.seed + k)
        for method, (decision, used) in results.items():
            right = {0.6: 1, 0.2: 2, 0.55: 1}.get(truth.mean)
            false_better = np.mean(decision == 1) if truth.mean <= 0.5 else float("nan")
            false_worse = (
                np.mean(decision == 2) if truth.mean >= 0.5 - args.margin else float("nan")
            )
            power = np.mean(decision == right) if right else float("nan")
            print(
                f"| {truth.name} ({truth.mean}) | {method} | {used.mean():.1f} | "
                f"{np.percentile(used, 90):.0f} | {2 * used.mean():.1f} | "
                f"{2 * np.percentile(used, 90):.0f} | {_pct(false_better)} | "
                f"{_pct(false_worse)} | {_pct(power)} |"
            )
            if method in saved:
                saved[method].append(1 - used.mean() / args.cases)
            if method == "sequential":
                worst_extra = max(worst_extra, int(used.max()) - args.cases)
    print(
        f"\nsequential: {np.mean(saved['sequential']):.0%} fewer cases and judge calls than "
        f"the fixed design on average over the grid (never more: at most "
        f"{worst_extra:+d} cases beyond it); naive peeking saves "
        f"{np.mean(saved['naive peeking']):.0%} but see its false-positive rate.\n"
    )


def _pct(value: float) -> str:
    return "-" if np.isnan(value) else f"{value:.1%}"


STRENGTHS = np.array([0.7, 0.4, 0.3, 0.2, 0.1, 0.0, -0.1, -0.3])
TIE = 0.2


def _battle(rng: np.random.Generator, i: int, j: int) -> float:
    if rng.random() < TIE:
        return 0.5
    return float(rng.random() < 1 / (1 + np.exp(STRENGTHS[j] - STRENGTHS[i])))


def _all_pairs(rng: np.random.Generator, cases: int, k: int) -> tuple[int, list[int]]:
    """Every pair on every case, then the Bradley-Terry top k."""
    n = len(STRENGTHS)
    state = AdaptiveState(n)
    for _ in range(cases):
        for i in range(n):
            for j in range(i + 1, n):
                state.add(i, j, _battle(rng, i, j))
    theta, _ = state.fit()
    return state.battles, sorted(np.argsort(-theta)[:k].tolist())


def _adaptive(rng: np.random.Generator, budget: int, k: int) -> tuple[int, list[int]]:
    state = AdaptiveState(len(STRENGTHS))
    while state.battles < budget:
        pick = next_pair(state, k)
        if pick is None:
            break
        state.add(*pick, _battle(rng, *pick))
    theta, _ = state.fit()
    return state.battles, sorted(np.argsort(-theta)[:k].tolist())


def part_two(args: argparse.Namespace) -> None:
    n = len(STRENGTHS)
    full = n * (n - 1) // 2 * args.rank_cases
    print(
        f"## Part 2: ranking {n} variants (true log-strengths {STRENGTHS.tolist()}, "
        f"{TIE:.0%} ties), {args.rank_cases} cases: all pairs = {full} battles = "
        f"{2 * full} judge calls; adaptive stops when separated at 95% or at half of that; "
        f"{args.rank_runs} runs\n"
    )
    print("| target | method | mean judge calls | p90 judge calls | share of all-pairs | "
          "found the true top |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    rng = np.random.default_rng(args.seed)
    for k in (1, 3):
        truth = list(range(k))
        rows: dict[str, list[tuple[int, bool]]] = {"all pairs": [], "adaptive": []}
        for _ in range(args.rank_runs):
            battles, top = _all_pairs(rng, args.rank_cases, k)
            rows["all pairs"].append((battles, top == truth))
            battles, top = _adaptive(rng, full // 2, k)
            rows["adaptive"].append((battles, top == truth))
        for method, got in rows.items():
            calls = 2 * np.array([b for b, _ in got])
            found = np.mean([ok for _, ok in got])
            print(
                f"| top-{k} | {method} | {calls.mean():.0f} | {np.percentile(calls, 90):.0f} | "
                f"{calls.mean() / (2 * full):.0%} | {found:.1%} |"
            )
    print()


def main() -> None:
    """Run both parts and print the tables (Markdown) with the machine."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--margin", type=float, default=0.05)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--rank-cases", type=int, default=50)
    parser.add_argument("--rank-runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    started = time.perf_counter()
    print(
        f"machine: {platform.processor() or platform.machine()}, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}, numpy {np.__version__}\n"
    )
    part_one(args)
    part_two(args)
    print(f"took {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

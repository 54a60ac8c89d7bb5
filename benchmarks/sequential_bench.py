"""Spend less to decide: the sequential comparison and adaptive judging against known truth.

Part 1, a candidate against a baseline on a golden set of ``--cases`` cases, on two grids of
true effects: the original one and a harder one (per-case heterogeneity, many ties). Each
case's outcome is the candidate's judged win share (1 win, 0.5 tie, 0 loss); every method
decides better / worse (by more than ``--margin``) / non-inferior (within the margin) /
undecided:

- fixed: every case, then the 95% normal interval (the fixed-size design);
- naive peeking: the same interval after every case (from the 10th), stop once decided;
- sequential, anytime: the betting confidence sequence (``arena.sequential.BettingCS``, what
  ``arena compare/gate --sequential`` decide on);
- sequential, spending: the known-horizon boundary (``arena.sequential.SpendingCS``) alone;
- sequential, spending + futility: the same with the predictive-power futility stop
  (``arena.sequential.futile``), built from ``arena.sequential.BoundaryPlan``.

It prints, per true effect, the mean and 90th-percentile cases and judge calls (two per
case) and the error rates: false "better" when the candidate is not better, false "worse"
when it is not worse by the margin, and power (the right decision); then the saving of each
method over the grid.

Part 2, ranking 8 variants, each pair judged on at most ``--rank-cases`` cases: all-pairs
judging against the adaptive loop ``arena.sequential.AdaptiveLoop`` (the very loop of
``arena judge --pairs adaptive``, with its finite cases per pair: with ``--budget`` half of
all pairs, with a futility stop, and with neither, the CLI's default), on the
original design (the true best first, 20% ties) and on one with the true best at a random
index and tie-prone cases: judge calls, share of all pairs, top-1 found, ranks separated.

    python -m benchmarks sequential_bench            # about 4-5 minutes on one core
"""

from __future__ import annotations

import argparse
import platform
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from arena.sequential import (
    ADAPTIVE_FUTILITY as FUTILITY,
)
from arena.sequential import (
    AdaptiveLoop,
    AdaptiveState,
    BettingCS,
    BoundaryPlan,
    SpendingCS,
    futile,
    make_sequence,
)
from benchmarks.common import timer


@dataclass(frozen=True)
class Truth:
    """A true effect: how a case's outcome is drawn."""

    name: str
    mean: float
    win: float = 0.0
    tie: float = 0.0
    mixed: tuple[float, float] | None = None
    """Per-case effects: half the cases won with the first probability, half the second."""
    kinds: tuple[tuple[float, float, float], ...] = ()
    """Per-case heterogeneity: kinds of case (share, win, tie), each case of one kind."""

    def draw(self, rng: np.random.Generator, runs: int, cases: int) -> np.ndarray:
        """Outcomes, one row per simulated golden set."""
        if self.mixed is not None:
            p = np.where(rng.random((runs, cases)) < 0.5, *self.mixed)
            return (rng.random((runs, cases)) < p).astype(float)
        win, tie = np.full((runs, cases), self.win), np.full((runs, cases), self.tie)
        if self.kinds:
            shares = np.array([k[0] for k in self.kinds])
            kind = rng.choice(len(self.kinds), size=(runs, cases), p=shares / shares.sum())
            win = np.array([k[1] for k in self.kinds])[kind]
            tie = np.array([k[2] for k in self.kinds])[kind]
        u = rng.random((runs, cases))
        return np.where(u < win, 1.0, np.where(u < win + tie, 0.5, 0.0))

    def right(self, margin: float) -> int:
        """The right decision's code (``decide_once``'s), 0 when there is none to find."""
        if self.mean > 0.5 + 1e-9:
            return 1
        return 2 if self.mean < 0.5 - margin - 1e-9 else 0


GRID_OF_TRUTHS = [
    Truth("equal", 0.5, win=0.35, tie=0.30),
    Truth("slightly better", 0.6, win=0.45, tie=0.30),
    Truth("clearly worse", 0.2, win=0.10, tie=0.20),
    Truth("mixed per case", 0.55, mixed=(0.8, 0.3)),
    Truth("ties", 0.5, win=0.05, tie=0.90),
]
HARD_GRID = [
    Truth("equal, mixed cases", 0.5, kinds=((0.4, 0.05, 0.9), (0.3, 0.7, 0.1), (0.3, 0.2, 0.1))),
    Truth("better, many ties", 0.572, kinds=((0.6, 0.12, 0.8), (0.4, 0.6, 0.1))),
    Truth("worse, mixed cases", 0.3, kinds=((0.5, 0.05, 0.3), (0.5, 0.3, 0.2))),
    Truth("at the margin", 0.45, kinds=((0.5, 0.2, 0.5), (0.5, 0.4, 0.1))),
    Truth("almost all ties", 0.5, win=0.02, tie=0.96),
]


def decide_once(lo: np.ndarray, hi: np.ndarray, margin: float) -> np.ndarray:
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


def _sequence(x: np.ndarray, margin: float, make: Callable[[int], object], futility: float = 0.0
              ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """(decision, cases used) of a sequence looked at after every case; code 4 is a
    futility stop (undecided). Runs that stopped are dropped from the sequence's arrays
    (each run's state is its own row), which changes nothing but the time."""
    runs, cases = x.shape
    cs = make(runs)
    decision, used = np.zeros(runs, dtype=int), np.full(runs, cases)
    rows = np.arange(runs)  # the runs still open, in the sequence's row order
    for t in range(cases):
        cs.update(x[rows, t])  # type: ignore[attr-defined]
        now = decide_once(*cs.bounds(), margin)  # type: ignore[attr-defined]
        if futility and isinstance(cs, SpendingCS):
            now[(now == 0) & futile(cs, margin, futility)] = 4
        hit = now > 0
        decision[rows[hit]], used[rows[hit]] = now[hit], t + 1
        if hit.any():
            _keep(cs, ~hit, rows.size)
            rows = rows[~hit]
        if not rows.size:
            break
    return decision, used


def _keep(cs: object, keep: np.ndarray, size: int) -> None:
    """Keep only the rows ``keep`` of every per-run array of a sequence (``m``, the betting
    grid of candidate means, is not per run)."""
    for name, value in vars(cs).items():
        if name != "m" and isinstance(value, np.ndarray) and value.ndim and value.shape[0] == size:
            setattr(cs, name, value[keep])


def simulate(truth: Truth, runs: int, cases: int, margin: float, seed: int) -> dict[str, tuple]:
    """(decision, cases used) per run for each method."""
    x = truth.draw(np.random.default_rng(seed), runs, cases)
    peek_d, peek_n = np.zeros(runs, dtype=int), np.full(runs, cases)
    open_peek = np.ones(runs, dtype=bool)
    for t in range(9, cases):
        now = decide_once(*_normal(x, t + 1), margin)
        hit = open_peek & (now > 0)
        peek_d[hit], peek_n[hit], open_peek[hit] = now[hit], t + 1, False
    plan = BoundaryPlan(cases, margin=margin)
    return {
        "fixed": (decide_once(*_normal(x, cases), margin), np.full(runs, cases)),
        "naive peeking": (peek_d, peek_n),
        "sequential, anytime (--boundary anytime)": _sequence(
            x, margin, lambda r: BettingCS(0.05, sequences=r, grid=400, horizon=cases // 2)
        ),
        "sequential, spending": _sequence(x, margin, lambda r: make_sequence(plan, sequences=r)),
        "sequential, spending + futility (the default)": _sequence(
            x, margin, lambda r: make_sequence(plan, sequences=r), plan.futility
        ),
    }


def part_one(args: argparse.Namespace, title: str, grid: list[Truth], seed: int) -> None:
    print(
        f"## Part 1, {title}: candidate vs baseline, {args.cases} cases, margin {args.margin}, "
        f"alpha 0.05 (each false decision <= 2.5%), {args.runs} simulated golden sets per truth\n"
    )
    print(
        "| truth (mean win share) | method | mean cases | p90 cases | mean judge calls | "
        "false better | false worse | power | futile |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    saved: dict[str, list[float]] = {}
    worst: dict[str, float] = {}
    for k, truth in enumerate(grid):
        results = simulate(truth, args.runs, args.cases, args.margin, seed=seed + k)
        right = truth.right(args.margin)
        for method, (decision, used) in results.items():
            false_better = np.mean(decision == 1) if truth.mean <= 0.5 else float("nan")
            false_worse = (
                np.mean(decision == 2) if truth.mean >= 0.5 - args.margin else float("nan")
            )
            power = np.mean(decision == right) if right else float("nan")
            print(
                f"| {truth.name} ({truth.mean}) | {method} | {used.mean():.1f} | "
                f"{np.percentile(used, 90):.0f} | {2 * used.mean():.1f} | "
                f"{_pct(false_better)} | {_pct(false_worse)} | {_pct(power)} | "
                f"{np.mean(decision == 4):.1%} |"
            )
            saved.setdefault(method, []).append(1 - used.mean() / args.cases)
            errors = [e for e in (false_better, false_worse) if not np.isnan(e)]
            worst[method] = max(worst.get(method, 0.0), *errors, 0.0)
    print("\n| method | saved vs fixed (mean over the grid) | worst false decision |")
    print("|---|---|---|")
    for method, shares in saved.items():
        print(f"| {method} | {np.mean(shares):.1%} | {worst[method]:.1%} |")
    print()


def _pct(value: float) -> str:
    return "-" if np.isnan(value) else f"{value:.1%}"


STRENGTHS = np.array([0.7, 0.4, 0.3, 0.2, 0.1, 0.0, -0.1, -0.3])
TIE = 0.2


@dataclass(frozen=True)
class Design:
    """A ranking design: true strengths (index 0 the best before shuffling) and case ties."""

    name: str
    shuffle: bool
    tie_prone: tuple[float, float, float]
    """(share of tie-prone cases, their tie chance, the other cases' tie chance)."""

    def world(self, rng: np.random.Generator, cases: int) -> tuple[np.ndarray, np.ndarray]:
        """(strengths, each case's tie chance) of one simulated run."""
        strengths = rng.permutation(STRENGTHS) if self.shuffle else STRENGTHS
        share, prone, other = self.tie_prone
        return strengths, np.where(rng.random(cases) < share, prone, other)


DESIGNS = [
    Design("the original (best first, 20% ties)", False, (0.0, TIE, TIE)),
    Design("best at a random index, tie-prone cases", True, (0.5, 0.7, 0.1)),
]


def _outcome(rng: np.random.Generator, strengths: np.ndarray, tie: float, i: int, j: int
             ) -> float:  # fmt: skip
    if rng.random() < tie:
        return 0.5
    return float(rng.random() < 1 / (1 + np.exp(strengths[j] - strengths[i])))


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def _all_pairs(rng: np.random.Generator, strengths: np.ndarray, ties: np.ndarray) -> list[int]:
    """Every pair on every case, then the Bradley-Terry ranking."""
    state = AdaptiveState(len(strengths))
    for tie in ties:
        for i, j in _pairs(len(strengths)):
            state.add(i, j, _outcome(rng, strengths, tie, i, j))
    theta, _ = state.fit()
    return np.argsort(-theta).tolist()


def _adaptive(
    rng: np.random.Generator,
    strengths: np.ndarray,
    ties: np.ndarray,
    k: int,
    options: tuple[int | None, float],
) -> tuple[int, list[int], bool]:
    """The CLI's loop: a random case not yet judged for the chosen pair, until it stops."""
    pairs = _pairs(len(strengths))
    order = {p: list(rng.permutation(len(ties))) for p in pairs}
    state = AdaptiveState(len(strengths))
    budget, futility = options
    loop = AdaptiveLoop(
        state, {p: len(ties) for p in pairs}, top_k=k, budget=budget, futility=futility
    )
    while (pair := loop.next()) is not None:
        case = order[pair].pop()
        loop.record(pair, _outcome(rng, strengths, float(ties[case]), *pair))
    theta, _ = state.fit()
    return loop.judged, np.argsort(-theta).tolist(), loop.separated


def part_two(args: argparse.Namespace) -> None:
    n = len(STRENGTHS)
    full = n * (n - 1) // 2 * args.rank_cases
    print(
        f"## Part 2: ranking {n} variants (true log-strengths {STRENGTHS.tolist()}), "
        f"{args.rank_cases} cases per pair: all pairs = {full} battles = {2 * full} judge "
        f"calls; adaptive: the CLI's loop, until separated at 95%, out of the cases that "
        f"could separate, or the budget / futility of the row; {args.rank_runs} runs per row\n"
    )
    print("| design | target | method | mean judge calls | share of all pairs | "
          "found the true top | separated |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(args.seed)
    methods: dict[str, tuple[int | None, float]] = {
        "adaptive, --budget half of all pairs": (full // 2, 0.0),
        f"adaptive, futility {FUTILITY:.0%}": (None, FUTILITY),
        "adaptive, no budget (arena's default)": (None, 0.0),
    }
    for design, k in ((DESIGNS[0], 1), (DESIGNS[0], 3), (DESIGNS[1], 1)):
        rows: dict[str, list[tuple[int, bool, bool]]] = {"all pairs": []}
        for _ in range(args.rank_runs):
            strengths, ties = design.world(rng, args.rank_cases)
            truth = sorted(np.argsort(-strengths)[:k].tolist())
            ranking = _all_pairs(rng, strengths, ties)
            rows["all pairs"].append((full, sorted(ranking[:k]) == truth, False))
            for method, options in methods.items():
                judged, ranking, separated = _adaptive(rng, strengths, ties, k, options)
                found = sorted(ranking[:k]) == truth
                rows.setdefault(method, []).append((judged, found, separated))
        for method, got in rows.items():
            calls = 2 * np.array([b for b, _, _ in got])
            found = np.mean([ok for _, ok, _ in got])
            apart = np.mean([s for _, _, s in got]) if method != "all pairs" else None
            print(
                f"| {design.name} | top-{k} | {method} | {calls.mean():.0f} | "
                f"{calls.mean() / (2 * full):.0%} | {found:.1%} | "
                f"{'-' if apart is None else f'{apart:.0%}'} |"
            )
    print()


def main(argv: list[str] | None = None) -> None:
    """Run both parts and print the tables (Markdown) with the machine."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--margin", type=float, default=0.05)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--rank-cases", type=int, default=50)
    parser.add_argument("--rank-runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with timer() as took:
        print(
            f"machine: {platform.processor() or platform.machine()}, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, numpy {np.__version__}\n"
        )
        if args.runs:
            part_one(args, "the original grid", GRID_OF_TRUTHS, args.seed)
            part_one(
                args, "the harder grid (heterogeneous cases, many ties)", HARD_GRID, args.seed + 100
            )
        if args.rank_runs:
            part_two(args)
    print(f"took {took.wall:.0f} s")


if __name__ == "__main__":
    main()

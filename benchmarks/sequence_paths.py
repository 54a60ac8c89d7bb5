"""What a sequential decision guarantees on each documented path, by simulation.

- **Continued run**: equal variants, reruns that raise ``--max-cases`` (40, 80, ..., 200).
  ``continued`` is what ``arena compare --sequential --boundary anytime`` does (the stored
  plan: one order, the first run's horizon, the evidence carried over; the default spending
  boundary refuses a larger budget instead); ``re-bet`` is what it did before (each
  rerun replayed the same order with bets tuned to its own ``budget // 2``). A false "better"
  is "better" at any look of any rerun.
- **Critical cases**: equal stochastic agents that pass each critical case with probability
  ``p``, ``K`` critical cases, ``repeats`` runs each: how often a critical case makes "worse"
  (the block by evidence of :mod:`arena.sequential._critical` against the old rule, any
  failure the baseline does not share).

Outcomes are Bernoulli(1/2) (a win or a loss, the largest variance), the run's plan comes from
:func:`arena.compare.sequential._sequence.start_plan` /
:func:`~arena.compare.sequential._sequence.continue_plan`,
the bets from :class:`arena.sequential.BettingCS`. Prints Markdown tables with Monte Carlo
standard errors::

    python -m benchmarks sequence_paths --runs 6000
"""

from __future__ import annotations

import argparse
import math
import platform

import numpy as np
from numpy.typing import NDArray

from arena.compare.sequential._sequence import PlanRequest, SequencePlan, continue_plan, start_plan
from arena.sequential import BettingCS

# private on purpose: the critical-value blocks and the sequence plan belong to the gate's layer
# (docs/architecture.yaml), above the statistics face (arena.sequential), which must not load them
from arena.sequential._critical import critical_blocks
from benchmarks.common import timer

BUDGETS = (40, 80, 120, 160, 200)


def _request(cases: int, max_cases: int, alpha: float) -> PlanRequest:
    ids = [f"c{i:04d}" for i in range(cases)]
    return PlanRequest(
        key="sim",
        seed=None,
        derived_seed=7,
        case_ids=ids,
        case_hashes={c: "h" for c in ids},
        alpha=alpha,
        margin=0.05,
        max_cases=max_cases,
        question="three-way",
        finite=False,
        repeats=1,
        boundary="anytime",  # the boundary whose budget a rerun may raise
    )


def _ever_better(
    plan: SequencePlan, outcomes: NDArray[np.float64], grid: int, horizon: int | None = None
) -> NDArray[np.bool_]:
    """Each simulated set: did the interval go above 0.5 within the plan's budget?"""
    runs = outcomes.shape[0]
    cs = BettingCS(plan.alpha, sequences=runs, grid=grid, horizon=horizon or plan.horizon)
    index = {c: i for i, c in enumerate(sorted(plan.order))}
    for case in plan.order[: plan.budget]:
        cs.update(outcomes[:, index[case]])
    # the lower bound of a running intersection only rises: "ever above 0.5" is "above at the end"
    return np.asarray(cs.bounds()[0] > 0.5)


def continued_false_better(
    runs: int,
    *,
    budgets: tuple[int, ...] = BUDGETS,
    alpha: float = 0.05,
    grid: int = 200,
    rebet: bool = False,
    seed: int = 0,
) -> float:
    """Share of ``runs`` equal-variant sets that ever say "better" over the reruns."""
    cases = budgets[-1]
    outcomes = np.random.default_rng(seed).integers(0, 2, (runs, cases)).astype(float)
    plan = start_plan(_request(cases, budgets[0], alpha))
    ever = np.zeros(runs, dtype=bool)
    for budget in budgets:
        if budget != budgets[0]:
            plan = continue_plan(plan, _request(cases, budget, alpha))
        if rebet:  # the old driver: each rerun re-bets from scratch, tuned to budget // 2
            ever |= _ever_better(plan, outcomes, grid, max(budget // 2, 1))
    if not rebet:  # each rerun replays the carried prefix exactly: one path to the last budget
        ever = _ever_better(plan, outcomes, grid)
    return float(ever.mean())


def critical_false_worse(
    runs: int,
    *,
    p: float = 0.8,
    cases: int = 6,
    repeats: int = 1,
    alpha: float = 0.05,
    strict: bool = False,
    old_rule: bool = False,
    seed: int = 0,
) -> float:
    """Share of runs where a critical case makes equal stochastic agents "worse"."""
    rng = np.random.default_rng(seed)
    base = rng.binomial(repeats, p, (runs, cases))
    cand = rng.binomial(repeats, p, (runs, cases))
    if old_rule:  # any critical case the candidate fails and the baseline passes
        blocked = (cand < repeats) & (base == repeats)
    else:
        share = alpha / (2 * cases)  # a fixed selection: each case alpha / (2K)
        blocked = critical_blocks(base, repeats, cand, repeats, alpha_case=share, strict=strict)
    return float(blocked.any(axis=1).mean())


def _se(rate: float, runs: int) -> float:
    return math.sqrt(max(rate * (1 - rate), 1e-12) / runs)


def main(argv: list[str] | None = None) -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=6000, help="simulated sets per row")
    parser.add_argument("--grid", type=int, default=200, help="candidate means of the bets")
    args = parser.parse_args(argv)
    with timer() as took:
        print(f"machine: {platform.machine()}, Python {platform.python_version()}, "
              f"numpy {np.__version__}\n")  # fmt: skip
        budgets = " -> ".join(map(str, BUDGETS))
        print(f"## Continued runs: equal variants, --max-cases {budgets}, alpha 0.05 "
              f"(false 'better' <= 2.5%), {args.runs} sets, grid {args.grid}\n")  # fmt: skip
        print("| method | false better | MC s.e. |\n|---|---|---|")
        for name, rebet in (("continued (stored plan)", False), ("re-bet each rerun (old)", True)):
            rate = continued_false_better(args.runs, grid=args.grid, rebet=rebet)
            print(f"| {name} | {rate:.2%} | {_se(rate, args.runs):.2%} |")
        runs = 200_000
        print(f"\n## Critical cases: equal stochastic agents, 6 critical cases, alpha 0.05, "
              f"{runs} runs per row\n")  # fmt: skip
        print("| pass prob | repeats | rule | 'worse' from a critical case |\n|---|---|---|---|")
        for p in (0.8, 0.5):
            for repeats in (1, 2, 3, 5):
                rows = [
                    ("old: any failure", True, False),
                    ("by evidence", False, False),
                    ("--strict-critical (declared deterministic)", False, True),
                ]
                for name, old, strict in rows:
                    rate = critical_false_worse(
                        runs, p=p, repeats=repeats, strict=strict, old_rule=old
                    )
                    print(f"| {p} | {repeats} | {name} | {rate:.2%} |")
    print(f"\ntook {took.wall:.0f} s")


if __name__ == "__main__":
    main()

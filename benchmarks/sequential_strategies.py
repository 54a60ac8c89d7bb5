"""Which betting strategy saves the most cases, at the same error rate? Measured in one run.

The grid of true effects, the 200-case budget, the margin and the decisions are those of
``benchmarks/sequential_bench.py`` (Part 1). Every strategy below is a valid hedged-capital
confidence sequence (each side a test martingale at alpha / 2 for every candidate mean, bets
from past outcomes only), so each keeps false "better" / "worse" <= 2.5% with a look after
every case; they differ only in how much they bet:

- plug-in (what ``arena.sequential.BettingCS`` does): the predictable empirical-Bernstein bet
  tuned to a horizon (half the case budget, or 70), truncated at ``c / m`` (c = 0.5 or 0.75);
- aGRAPA: the approximate growth-rate-optimal bet per candidate mean,
  ``(mu_hat - m) / (sigma_hat^2 + (mu_hat - m)^2)``, one-sided per side (c = 0.5, 0.75);
- mixture: the capital averaged over the plug-in bet times 0.5, 1, 2 and 4 (diversified
  betting: an average of test martingales is one);
- TOST: "non-inferior" read from a 90% sequence (each one-sided test at 5%, Schuirmann's
  two one-sided tests), better / worse from the 95% one: a *looser* guarantee for
  "non-inferior" (5% instead of 2.5%), shown for what it would buy, not adopted;
- oracle constant bet: for each truth, the best of several constant bets *chosen knowing the
  truth* (not a usable method: an optimistic reference for what any bet could do);
- the information floor of the capped run: ``kl(beta, alpha / 2) / KL_inf`` (Kaufmann,
  Cappé & Garivier 2016, Lemma 1), a lower bound on ``E[min(tau, 200)]`` for any test that
  reaches the truth's right decision by the cap with probability ``beta`` (here the power of
  the first row) and errs with at most ``alpha / 2`` at the nearest null; KL_inf is the best
  log-growth of a bet against that null (Honda & Takemura). The older ``log(2 / alpha) /
  KL_inf`` bounds the *uncapped* stopping time of a power-one test only: it says nothing about
  ``E[min(tau, 200)]`` (min is concave), so it never capped the savings; runs that would end
  undecided can stop early (futility) at no error cost.

    python -m benchmarks sequential_strategies --runs 1000
"""

from __future__ import annotations

import argparse
import math
import platform
from collections.abc import Callable

import numpy as np

from arena.sequential import BettingCS
from benchmarks.common import timer
from benchmarks.sequential_bench import GRID_OF_TRUTHS, Truth, decide_once

CONSTANT_BETS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)


class StrategyCS(BettingCS):
    """A hedged-capital confidence sequence with another bet (the class docstring's rule)."""

    def __init__(
        self,
        alpha: float,
        *,
        strategy: str,
        c: float = 0.5,
        factors: tuple[float, ...] = (1.0,),
        constant: float = 1.0,
        **kwargs: int,
    ) -> None:
        super().__init__(alpha, **kwargs)
        self.strategy, self.c, self.factors, self.constant = strategy, c, factors, constant
        shape = (len(factors), *self.log_up.shape)
        self.parts_up, self.parts_down = np.zeros(shape), np.zeros(shape)

    def _sides(self, safe: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (up, down) bets per sequence and candidate mean, before truncation."""
        if self.strategy == "agrapa":
            d = self.mean_hat[:, None] - safe
            bet = d / ((self.squares / self.t)[:, None] + d * d)
            return np.maximum(bet, 0.0), np.maximum(-bet, 0.0)
        if self.strategy == "constant":
            bet = np.full(safe.shape, self.constant)
            return bet, bet
        bet = np.broadcast_to(self._bet()[:, None], safe.shape)
        return bet, bet

    def update(self, x: np.ndarray) -> None:  # type: ignore[override]
        values = np.asarray(x, dtype=float).reshape(-1)
        self.t += 1
        safe = np.broadcast_to(np.clip(self.m, 1e-12, 1 - 1e-12), self.log_up.shape)
        gap = values[:, None] - safe
        up, down = self._sides(safe)
        for k, factor in enumerate(self.factors):
            self.parts_up[k] += np.log1p(np.minimum(factor * up, self.c / safe) * gap)
            self.parts_down[k] += np.log1p(-np.minimum(factor * down, self.c / (1 - safe)) * gap)
        mix = math.log(len(self.factors))
        self.log_up = np.logaddexp.reduce(self.parts_up, axis=0) - mix
        self.log_down = np.logaddexp.reduce(self.parts_down, axis=0) - mix
        capital = np.maximum(self.log_up, self.log_down) - math.log(2)
        self.excluded |= (capital >= self._threshold) | np.isnan(capital)
        self.squares += (values - self.mean_hat) ** 2
        self.total += values
        self.mean_hat = (0.5 + self.total) / (self.t + 1)


Make = Callable[[int], BettingCS]


def strategies(cases: int) -> dict[str, Make]:
    """The strategies compared, each making ``runs`` sequences at once."""
    half = max(cases // 2, 1)

    def plug(c: float, horizon: int) -> Make:
        return lambda r: StrategyCS(
            0.05, strategy="plugin", c=c, sequences=r, grid=400, horizon=horizon
        )

    def agrapa(c: float) -> Make:
        return lambda r: StrategyCS(0.05, strategy="agrapa", c=c, sequences=r, grid=400)

    return {
        f"plug-in, horizon {half}, c 0.5 (arena's anytime boundary)": plug(0.5, half),
        "plug-in, horizon 70, c 0.5": plug(0.5, 70),
        f"plug-in, horizon {half}, c 0.75": plug(0.75, half),
        "aGRAPA, c 0.5": agrapa(0.5),
        "aGRAPA, c 0.75": agrapa(0.75),
        "mixture of 4 plug-in bets": lambda r: StrategyCS(
            0.05, strategy="plugin", factors=(0.5, 1, 2, 4), sequences=r, grid=400, horizon=half
        ),
    }


def _constant(bet: float) -> Make:
    return lambda r: StrategyCS(0.05, strategy="constant", constant=bet, sequences=r, grid=400)


def simulate(
    make: Make, x: np.ndarray, margin: float, loose: Make | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(decision, cases used) per simulated golden set (``decide_once``'s codes). With
    ``loose``, "non-inferior" is read from that second sequence instead."""
    runs, cases = x.shape
    cs, other = make(runs), loose(runs) if loose else None
    decision, used = np.zeros(runs, dtype=int), np.full(runs, cases)
    open_ = np.ones(runs, dtype=bool)
    for t in range(cases):
        cs.update(x[:, t])
        now = decide_once(*cs.bounds(), margin)
        if other is not None:
            other.update(x[:, t])
            lower, upper = other.bounds()
            inside = (lower >= 0.5 - margin) & (upper <= 0.5 + margin)
            now = np.where((now == 1) | (now == 2), now, np.where(inside, 3, 0))
        hit = open_ & (now > 0)
        decision[hit], used[hit], open_[hit] = now[hit], t + 1, False
    return decision, used


def main(argv: list[str] | None = None) -> None:
    """Parse the flags and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--margin", type=float, default=0.05)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with timer() as took:
        print(
            f"machine: {platform.processor() or platform.machine()}, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, numpy {np.__version__}\n"
        )
        data = [
            t.draw(np.random.default_rng(args.seed + k), args.runs, args.cases)
            for k, t in enumerate(GRID_OF_TRUTHS)
        ]
        names = " | ".join(f"{t.name} ({t.mean})" for t in GRID_OF_TRUTHS)
        print(
            f"{args.runs} simulated golden sets of {args.cases} cases per truth, "
            f"margin {args.margin}"
        )
        print("mean cases to a decision; in brackets: false better (equal, ties) or power\n")
        print(f"| strategy | {names} | saved vs fixed | max false better |")
        print("|---|" + "---|" * len(GRID_OF_TRUTHS) + "---|---|")
        rows = {
            name: [simulate(make, x, args.margin) for x in data]
            for name, make in strategies(args.cases).items()
        }
        arena_cs = next(iter(strategies(args.cases).values()))

        def loose(runs: int) -> BettingCS:
            return BettingCS(0.10, sequences=runs, grid=400, horizon=max(args.cases // 2, 1))

        rows["TOST: non-inferior at 5% per side (looser, not adopted)"] = [
            simulate(arena_cs, x, args.margin, loose) for x in data
        ]
        rows["oracle constant bet (knows the truth)"] = [
            min(
                (simulate(_constant(bet), x, args.margin) for bet in CONSTANT_BETS),
                key=lambda result: result[1].mean(),
            )
            for x in data
        ]
        for name, results in rows.items():
            cells, false_better = [], 0.0
            for truth, (decision, used) in zip(GRID_OF_TRUTHS, results, strict=True):
                right = {0.6: 1, 0.2: 2, 0.55: 1}.get(truth.mean)
                rate = np.mean(decision == right) if right else np.mean(decision == 1)
                if not right:
                    false_better = max(false_better, float(rate))
                cells.append(f"{used.mean():.1f} ({rate:.1%})")
            saved = np.mean([1 - used.mean() / args.cases for _, used in results])
            print(f"| {name} | {' | '.join(cells)} | {saved:.1%} | {false_better:.1%} |")
        first = next(iter(rows.values()))
        floors = " | ".join(
            f"{_floor(t, args.margin, _power(t, d, args.margin)):.0f}"
            for t, (d, _) in zip(GRID_OF_TRUTHS, first, strict=True)
        )
        print(f"| information floor, kl(beta, alpha/2) / KL_inf (capped) | {floors} | | |")
    print(f"\ntook {took.wall:.0f} s")


def _support(truth: Truth) -> tuple[np.ndarray, np.ndarray]:
    """The outcome distribution of a truth: values and probabilities."""
    if truth.mixed is not None:
        win = float(np.mean(truth.mixed))
        return np.array([0.0, 1.0]), np.array([1 - win, win])
    return np.array([0.0, 0.5, 1.0]), np.array([1 - truth.win - truth.tie, truth.tie, truth.win])


def _growth(values: np.ndarray, probs: np.ndarray, null: float, up: bool) -> float:
    """KL_inf: the best expected log-growth of any constant bet against the null mean
    (Honda & Takemura), which no anytime-valid test at that null can beat on average."""
    sign = 1.0 if up else -1.0
    top = 1 / null if up else 1 / (1 - null)
    bets = np.linspace(0.0, top * 0.999, 4000)
    logs = np.log1p(sign * bets[:, None] * (values[None, :] - null)) @ probs
    return float(logs.max())


def _power(truth: Truth, decision: np.ndarray, margin: float) -> float:
    """The share of runs that reached the truth's right decision (non-inferior when it has
    no better or worse to find)."""
    return float(np.mean(decision == (truth.right(margin) or 3)))


def _kl(p: float, q: float) -> float:
    """Bernoulli Kullback-Leibler divergence kl(p, q)."""
    p = min(max(p, 1e-12), 1 - 1e-12)
    return p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))


def _floor(truth: Truth, margin: float, power: float, alpha: float = 0.05) -> float:
    """The least mean number of cases, capped run included, of any test that reaches the
    truth's right decision with probability ``power`` and errs with at most ``alpha / 2``
    (Kaufmann, Cappé & Garivier 2016, Lemma 1): ``kl(power, alpha / 2) / KL_inf`` against
    the nearest null of the right decision: better (up at 0.5), worse (down at 0.5 -
    margin), or non-inferior (both up at 0.5 - margin and down at 0.5 + margin: the slower
    one). Zero when the power is at most alpha / 2."""
    values, probs = _support(truth)
    if truth.mean > 0.5:
        rates = [_growth(values, probs, 0.5, up=True)]
    elif truth.mean < 0.5 - margin:
        rates = [_growth(values, probs, 0.5 - margin, up=False)]
    else:
        rates = [
            _growth(values, probs, 0.5 - margin, up=True),
            _growth(values, probs, 0.5 + margin, up=False),
        ]
    if power <= alpha / 2:
        return 0.0
    return _kl(power, alpha / 2) / min(rates)


if __name__ == "__main__":
    main()

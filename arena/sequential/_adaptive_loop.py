"""The adaptive judging loop, one code for ``arena judge --pairs adaptive`` and the benchmark.

:class:`AdaptiveLoop` says which pair to judge next and when to stop; the caller judges (a
model, or a simulation) and records the outcome::

    loop = AdaptiveLoop(state, cases_left, top_k=1)
    while (pair := loop.next()) is not None:
        loop.record(pair, judge(pair))   # None: judged, but no outcome (a judge error)

**Finite cases per pair.** Each pair has only so many cases. The next pair is the least
separated (top-k member, outsider) pair with cases left, as :func:`arena.sequential.next_pair`
would pick it; once no unseparated pair has a case left, the battle that most shrinks the
variance of the least separated difference among the pairs that still have cases
(Bradley-Terry links every pair through common opponents: judging ``(i, k)`` and ``(j, k)``
informs ``theta_i - theta_j``). The
loop stops when the top k are separated, when the budget is spent, when no pair with a case
left can inform an unseparated difference, or, with ``futility`` (off by default), when even
every case left, judged, would separate some boundary difference with a predictive chance
under it (its estimate ``d`` moves by ``N(0, V_now - V_all)`` and must end above
``z sqrt(V_all)``, ``V_all`` the variance once every case left is judged). A futility stop
saves calls but finds the true top less often (``benchmarks/sequential_bench.py``: separation
is rarely reachable, while more battles still sharpen the ranking). Then the ranking is
reported as *not* separated, settled as far as the evidence goes.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtr, ndtri

from arena.sequential._adaptive import AdaptiveState, _gaps

#: A futility threshold worth trying: stop once the chance that every case left separates
#: the top k is under this (the loop's default is 0, no futility stop).
FUTILITY = 0.02


class AdaptiveLoop:
    """Which pair next and when to stop (module docstring).

    ``cases_left`` maps each pair ``(i, j)``, ``i < j``, to the cases it can still be judged
    on; ``budget`` caps the battles judged by this loop (None: no cap).
    """

    def __init__(
        self,
        state: AdaptiveState,
        cases_left: dict[tuple[int, int], int],
        *,
        top_k: int = 1,
        alpha: float = 0.05,
        budget: int | None = None,
        futility: float = 0.0,
    ) -> None:
        self.state, self.top_k, self.alpha, self.budget = state, top_k, alpha, budget
        self.futility = futility
        self.left = {(min(p), max(p)): n for p, n in cases_left.items() if n > 0}
        self.judged = 0
        self.separated = False
        self.reason = ""

    def next(self) -> tuple[int, int] | None:
        """The pair to judge next, or None once the loop stops (``reason`` says why)."""
        if self.budget is not None and self.judged >= self.budget:
            self.reason = f"the budget of {self.budget} battles is spent"
            return None
        gaps, _ = _gaps(self.state, self.top_k, self.alpha)
        open_ = sorted((g for g in gaps if g[0] <= 0), key=lambda g: (g[0], self._count(g)))
        if not open_:
            self.separated = True
            self.reason = f"the top {self.top_k} are separated at {1 - self.alpha:.0%} confidence"
            return None
        if self.futility and self._hopeless([(i, j) for _, i, j in open_]):
            self.reason = (
                f"undecided: more cases would not separate the top {self.top_k} (even every "
                f"case left gives it a chance under {self.futility:.0%}): not separated, "
                "settled as far as the evidence goes"
            )
            return None
        for _, i, j in open_:
            pair = (min(i, j), max(i, j))
            if self.left.get(pair, 0) > 0:
                return pair
        for _, i, j in open_:
            helper = self._most_informative(i, j)
            if helper is not None:
                return helper
        self.reason = (
            "every case that could separate the top "
            f"{self.top_k} is judged: not separated, settled as far as the evidence goes"
        )
        return None

    def record(self, pair: tuple[int, int], score_first: float | None) -> None:
        """One battle judged on ``pair`` (``score_first``: the first variant's share of the
        win, None when the battle has no outcome); it uses up one of the pair's cases."""
        key = (min(pair), max(pair))
        self.judged += 1
        self.left[key] = self.left.get(key, 0) - 1
        if score_first is not None:
            self.state.add(pair[0], pair[1], score_first)

    def _count(self, gap: tuple[float, int, int]) -> float:
        return float(self.state.counts[gap[1], gap[2]])

    def _most_informative(self, i: int, j: int) -> tuple[int, int] | None:
        """The pair with cases left whose next battle most shrinks Var(theta_i - theta_j)."""
        pairs = [p for p, n in self.left.items() if n > 0]
        if not pairs:
            return None
        theta, cov = self.state.fit()
        v = np.zeros(self.state.variants)
        v[i], v[j] = 1.0, -1.0
        a, b = np.array(pairs).T
        p = 1 / (1 + np.exp(theta[b] - theta[a]))
        weight = p * (1 - p)
        cv = cov @ v
        link = cv[a] - cv[b]  # v' cov u for u = e_a - e_b
        self_var = cov[a, a] + cov[b, b] - 2 * cov[a, b]
        gain = weight * link**2 / (1 + weight * self_var)
        best = int(np.argmax(gain))
        return pairs[best] if gain[best] > 1e-12 else None

    def _hopeless(self, open_: list[tuple[int, int]]) -> bool:
        """True when some unseparated difference would stay unseparated, with predictive
        chance at least 1 - futility, after every case left (module docstring)."""
        pairs = [p for p, n in self.left.items() if n > 0]
        theta, cov = self.state.fit()
        n = self.state.variants
        future = np.linalg.inv(cov)
        for (a, b), count in ((p, self.left[p]) for p in pairs):
            p_ab = 1 / (1 + np.exp(theta[b] - theta[a]))
            u = np.zeros(n)
            u[a], u[b] = 1.0, -1.0
            future += count * p_ab * (1 - p_ab) * np.outer(u, u)
        cov_all: NDArray[np.float64] = np.linalg.inv(future)
        z = float(ndtri(1 - self.alpha / (2 * self.top_k * (n - self.top_k))))
        for i, j in open_:
            v = np.zeros(n)
            v[i], v[j] = 1.0, -1.0
            now, after = float(v @ cov @ v), float(v @ cov_all @ v)
            gap = float(theta[i] - theta[j]) - z * np.sqrt(max(after, 0.0))
            moves = np.sqrt(max(now - after, 0.0))
            chance = float(gap > 0) if moves < 1e-12 else float(ndtr(gap / moves))
            if chance < self.futility:
                return True
        return False

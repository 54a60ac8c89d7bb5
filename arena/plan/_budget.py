"""``--max-cost USD``: admit work only while the spend stays within the limit.

Before each task (or pair) starts, its estimated cost is reserved; it is admitted only if what
is spent, what is reserved for work in flight and its own estimate stay within the limit.
Once one is refused the budget is closed: nothing more starts, what is in flight finishes and
is stored, and a rerun (with a higher limit) resumes the rest.

A task's estimate is the mean spend of the same variant's tasks finished in this run, else
the plan's estimate when it comes from previous runs. With neither (a first run of a priced
model), tasks of that variant start one at a time, each only while some budget is left, until
the first one finishes: the spend never runs ahead of what has been measured by more than one
task.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from arena.records.results import RunResult


def spend(result: RunResult) -> float:
    """Dollars a fresh result actually cost: its cost scaled to the requests really sent
    (replies replayed from the cache cost nothing). An unknown cost (a model without a
    price, which ``arena run`` notes when it starts) cannot be counted: it counts 0 here."""
    cost = result.cost_usd or 0.0
    if result.model_calls <= 0:
        return cost
    return cost * min(result.fresh_model_calls, result.model_calls) / result.model_calls


@dataclass
class _Line:
    prior: float | None
    observed_usd: float = 0.0
    observed: int = 0
    in_flight: int = 0

    def per_unit(self) -> float | None:
        return self.observed_usd / self.observed if self.observed else self.prior


class Budget:
    """The spend of one command against ``limit_usd``; ``priors`` maps each line (a variant
    name, or ``judge``) to its estimated cost per unit, None when not measured yet."""

    def __init__(self, limit_usd: float, priors: dict[str, float | None]) -> None:
        if not limit_usd >= 0:
            raise ValueError("the limit must be a non-negative number of dollars")
        self.limit_usd = limit_usd
        self.spent_usd = 0.0
        self.reserved_usd = 0.0
        self.stopped = False
        self.refused = 0
        self._lines = {name: _Line(prior) for name, prior in priors.items()}
        self._changed = asyncio.Condition()

    def _line(self, name: str) -> _Line:
        return self._lines.setdefault(name, _Line(None))

    async def admit(self, name: str) -> float | None:
        """Reserve one unit of ``name``: the reservation, or None when it would pass the
        limit (the budget then closes)."""
        async with self._changed:
            line = self._line(name)
            while not self.stopped and line.per_unit() is None and line.in_flight:
                await self._changed.wait()  # unmeasured: one at a time
            estimate = line.per_unit()
            committed = self.spent_usd + self.reserved_usd
            if estimate is None:  # a probe: admitted while any budget is left
                over = committed >= self.limit_usd
                estimate = 0.0
            else:
                over = committed + estimate > self.limit_usd
            if self.stopped or over:
                self.stopped = True
                self.refused += 1
                self._changed.notify_all()
                return None
            line.in_flight += 1
            self.reserved_usd += estimate
            return estimate

    async def settle(
        self, name: str, reservation: float, spent: float | None, measured: bool = False
    ) -> None:
        """Replace a reservation by what was spent (None: nothing, the work failed).
        ``measured``: the unit ran fully, so its spend informs the next estimates."""
        async with self._changed:
            line = self._line(name)
            line.in_flight -= 1
            self.reserved_usd = max(0.0, self.reserved_usd - reservation)
            if spent is not None:
                self.spent_usd += spent
                if measured:
                    line.observed_usd += spent
                    line.observed += 1
            self._changed.notify_all()

    def summary(self) -> dict[str, float | int | bool]:
        """Limit, spend, whether the budget stopped the command and how much it refused."""
        return {
            "max_cost_usd": self.limit_usd,
            "spent_usd": round(self.spent_usd, 6),
            "stopped": self.stopped,
            "not_started": self.refused,
        }

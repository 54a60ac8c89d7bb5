"""Query resampling for the bootstrap, within a fixed byte budget.

A bootstrap round draws ``n`` queries with replacement out of ``n``; all it needs is how often
each query was drawn (its multiplicity). Queries whose battles contribute exactly the same
counts are interchangeable, so they can be grouped into *types* and a round drawn as a
multinomial over the types: the same distribution, at a cost that grows with the number of
types instead of the number of queries. A battle log without ``question_id`` (every battle its
own query) has at most three types per model pair (win, tie, loss), however many battles it
holds. Multiplicities are produced a few rounds at a time, so memory stays within
:data:`RESAMPLE_BUDGET` whatever the number of queries.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from arena.ratings._battle_arrays import FloatArray, IntArray

#: Bytes of draws and multiplicities materialised at once (per batch of rounds).
RESAMPLE_BUDGET = 64 * 2**20
#: A multinomial draw per type costs about this many uniform draws per query.
_MULTINOMIAL_COST = 6


def rows_per_batch(width: int, rounds: int, budget: int = RESAMPLE_BUDGET) -> int:
    """Rounds per batch so that (rounds x ``width``) int64 draws plus float64 counts fit."""
    return int(min(max(rounds, 1), max(1, budget // (16 * max(width, 1)))))


def query_multiplicities(
    n_queries: int,
    rounds: int,
    rng: np.random.Generator,
    chunk: int | None = None,
    *,
    budget: int = RESAMPLE_BUDGET,
) -> Iterator[FloatArray]:
    """Yield (rows x queries) multinomial counts of ``n_queries`` draws, ``rounds`` rows total.

    Rows come in batches of ``chunk`` (default: as many as fit in ``budget`` bytes).
    """
    step = chunk if chunk is not None else rows_per_batch(n_queries, rounds, budget)
    for first in range(0, rounds, step):
        rows = min(step, rounds - first)
        draws = rng.integers(0, n_queries, size=(rows, n_queries))
        draws += (np.arange(rows) * n_queries)[:, None]
        counts = np.bincount(draws.ravel(), minlength=rows * n_queries)
        del draws
        yield counts.reshape(rows, n_queries).astype(np.float64)


@dataclass(frozen=True, eq=False)
class UnitTypes:
    """Resampling units (queries) grouped into interchangeable types.

    ``unit_type[q]`` is the type of unit ``q``; ``counts[t]`` the number of units of type
    ``t`` (``counts.sum() == n_units``).
    """

    unit_type: IntArray
    counts: IntArray

    @property
    def n_units(self) -> int:
        """Number of units drawn per round (with replacement)."""
        return int(self.unit_type.shape[0])

    @property
    def n_types(self) -> int:
        """Number of types."""
        return int(self.counts.shape[0])

    @classmethod
    def identity(cls, n_units: int) -> UnitTypes:
        """Every unit its own type."""
        return cls(np.arange(n_units, dtype=np.int64), np.ones(n_units, dtype=np.int64))


def type_multiplicities(
    types: UnitTypes, rounds: int, rng: np.random.Generator, *, budget: int = RESAMPLE_BUDGET
) -> Iterator[FloatArray]:
    """Yield (rows x types) counts: how often each type is drawn per round, ``rounds`` rows.

    Each round draws ``types.n_units`` units uniformly with replacement. With every unit its
    own type this is :func:`query_multiplicities` (the same random stream); with few types a
    multinomial over them; otherwise unit draws mapped to their types.
    """
    n, t = types.n_units, types.n_types
    if t == n and np.array_equal(types.unit_type, np.arange(n)):
        yield from query_multiplicities(n, rounds, rng, budget=budget)
        return
    if t * _MULTINOMIAL_COST < n:
        step = rows_per_batch(t, rounds, budget)
        pvals = types.counts / float(n)
        for first in range(0, rounds, step):
            rows = min(step, rounds - first)
            yield rng.multinomial(n, pvals, size=rows).astype(np.float64)
        return
    step = rows_per_batch(n + t, rounds, budget)
    for first in range(0, rounds, step):
        rows = min(step, rounds - first)
        drawn = types.unit_type[rng.integers(0, n, size=(rows, n))]
        drawn += (np.arange(rows) * t)[:, None]
        counts = np.bincount(drawn.ravel(), minlength=rows * t)
        del drawn
        yield counts.reshape(rows, t).astype(np.float64)

"""Bootstrap rounds spread over threads, with results that do not depend on how many.

Rounds are refitted in chunks of columns whose boundaries depend only on the data (the
solver's memory budget), never on the number of workers: a chunk is solved by the same
operations in the same order whichever thread runs it, so a seed gives the same ratings,
bit for bit, on one worker or many. numpy's array operations and scipy's sparse products
release the GIL on arrays this size, so chunks solved on different threads run in parallel
on different cores and share one copy of the pair graph and the query contributions.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from arena.ratings._battle_arrays import FloatArray

#: Threads used when none are asked for: one per core the process may run on, at most this.
MAX_DEFAULT_WORKERS = 8


def default_workers() -> int:
    """One worker per core available to this process (at most :data:`MAX_DEFAULT_WORKERS`)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without CPU affinity
        cores = os.cpu_count() or 1
    return max(1, min(MAX_DEFAULT_WORKERS, cores))


def solve_chunks(
    solve: Callable[[slice], FloatArray], n_rows: int, step: int, out: FloatArray, workers: int
) -> None:
    """Fill ``out[rows]`` with ``solve(rows)`` for consecutive ``step``-row chunks.

    With more than one worker (and more than one chunk) the chunks run on a thread pool;
    at most ``workers`` chunks are in flight, so working memory grows by that factor.
    """
    chunks = [slice(first, min(n_rows, first + step)) for first in range(0, n_rows, step)]
    if workers <= 1 or len(chunks) <= 1:
        for rows in chunks:
            out[rows] = solve(rows)
        return
    with ThreadPoolExecutor(max_workers=min(workers, len(chunks))) as pool:
        for rows, result in zip(chunks, pool.map(solve, chunks), strict=True):
            out[rows] = result

"""The one fan-out of runs and judging (arena/fanout.py): at most ``concurrency``
units in flight, each here or by the executor (unless it must stay here), a unit the
executor does not start neither recorded nor counted, failures counted for the bar."""

from __future__ import annotations

import asyncio

import pytest

from arena.executors import FanOut, Progress

pytestmark = pytest.mark.unit


def test_at_most_concurrency_units_run_at_once_and_every_one_finishes() -> None:
    running, peak, done = 0, 0, []

    async def here(item: int) -> int:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1
        return item

    progress = Progress(10, enabled=False, desc="units", unit="unit")
    fan_out = FanOut(here=here, finished=done.append, failed=lambda item: item % 3 == 0)
    asyncio.run(fan_out.run(range(10), 3, progress))
    assert peak == 3 and sorted(done) == list(range(10))
    assert progress.errors == 4  # 0, 3, 6, 9


def test_the_executor_runs_what_need_not_stay_here_and_may_refuse_some() -> None:
    where: dict[int, str] = {}
    done: list[int] = []

    async def here(item: int) -> int:
        where[item] = "here"
        return item

    async def elsewhere(item: int) -> int | None:
        where[item] = "elsewhere"
        return None if item == 4 else item  # 4: not started (a budget refused it)

    progress = Progress(6, enabled=False, desc="units", unit="unit")
    fan_out = FanOut(
        here=here,
        finished=done.append,
        failed=lambda item: item == 4,
        elsewhere=elsewhere,
        stays_here=lambda item: item % 2 == 1,
    )
    asyncio.run(fan_out.run(range(6), 0, progress))  # concurrency 0 still runs one at a time
    assert where == {
        0: "elsewhere",
        1: "here",
        2: "elsewhere",
        3: "here",
        4: "elsewhere",
        5: "here",
    }
    assert sorted(done) == [0, 1, 2, 3, 5] and progress.errors == 0

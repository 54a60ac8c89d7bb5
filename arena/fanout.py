"""One fan-out for runs and judging: many units of work, a few at a time, with a progress bar.

:func:`arena.runner.run_suite_async` (agent tasks) and :func:`arena.battles.judge_run_async`
(pairs) hand their pending work here: at most ``concurrency`` units are in flight (one
semaphore), each runs in this process or, when an executor is given (Ray, a budget), by the
executor, unless it must stay here (a pair a crash decides needs no call), and each finished
unit ticks one bar on stderr with the errors so far. A unit the executor does not start
(``None``: ``--max-cost``) is left for a rerun and not counted. Everything else (what is
pending, what a finished unit means) stays with the caller. Standard library only (tqdm is
imported when a bar is shown), so the runner and the judging loop import it from below.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")
Done = TypeVar("Done")


class Progress:
    """A bar on stderr counting finished units and, as its postfix, those that failed; off
    (every method a no-op) when not ``enabled`` or there is nothing to do."""

    def __init__(self, total: int, enabled: bool, desc: str, unit: str) -> None:
        self.errors = 0
        self._bar: Any = None
        if enabled and total > 0:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True)

    def tick(self, failed: bool) -> None:
        """One unit finished (``failed``: it ended in an error)."""
        self.errors += int(failed)
        if self._bar is not None:
            self._bar.set_postfix_str(f"errors={self.errors}", refresh=False)
            self._bar.update(1)

    def close(self) -> None:
        """Close the bar (idempotent)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def never(_item: Any) -> bool:
    """No unit has to stay in this process."""
    return False


@dataclass
class FanOut(Generic[Item, Done]):
    """How each unit runs: ``here`` in this process, or ``elsewhere`` (by an executor; None
    without one) unless ``stays_here(unit)``; ``finished`` records each outcome (called
    before the bar ticks) and ``failed`` says whether it ended in an error."""

    here: Callable[[Item], Awaitable[Done | None]]
    finished: Callable[[Done], None]
    failed: Callable[[Done], bool]
    elsewhere: Callable[[Item], Awaitable[Done | None]] | None = None
    stays_here: Callable[[Item], bool] = never

    async def run(self, items: Iterable[Item], concurrency: int, progress: Progress) -> None:
        """Run every item, at most ``concurrency`` (at least 1) at a time; the bar is closed
        when all are done or one raised (the others still finish, as with ``gather``)."""
        semaphore = asyncio.Semaphore(max(1, concurrency))

        async def one(item: Item) -> None:
            async with semaphore:
                run = self.here
                if self.elsewhere is not None and not self.stays_here(item):
                    run = self.elsewhere
                outcome = await run(item)
                if outcome is None:  # not started (a budget): a rerun does it
                    return
                self.finished(outcome)
                progress.tick(self.failed(outcome))

        try:
            await asyncio.gather(*(one(item) for item in items))
        finally:
            progress.close()


def run_interruptibly(main: Awaitable[Done]) -> Done:
    """``asyncio.run(main)``, except that a Ctrl-C always ends in :class:`KeyboardInterrupt`
    and a SIGTERM handled by Python (the CLI's) runs only after the run's cleanup.

    As :func:`asyncio.run` does, a first Ctrl-C cancels the main task (so ``finally`` blocks
    and interrupted-run bookkeeping run) and a second one raises at once. Unlike it, the
    interrupt is not lost when the cancellation is (Python 3.11 can drop a cancellation that
    meets a task finishing at the same moment, and the run then went on as if no key had been
    pressed). A first SIGTERM does the same, and the process's own SIGTERM handler is called
    once the main task has ended: raised inside a nested task (a model call), its
    ``SystemExit`` would leave the loop before the main task's cleanup, and the run would stay
    ``running``. Off the main thread, or under a SIGINT handler of the caller's, it is
    :func:`asyncio.run`.
    """
    import signal
    import threading

    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        return asyncio.run(_awaited(main))
    pressed: list[int] = []
    terminated: list[int] = []
    running: list[asyncio.Task[Any]] = []
    loop = asyncio.new_event_loop()
    on_term = signal.getsignal(signal.SIGTERM)

    def cancel_first(signals: list[int]) -> bool:
        signals.append(1)
        if len(signals) == 1 and running and not running[0].done():
            loop.call_soon_threadsafe(running[0].cancel)
            return True
        return False

    def on_sigint(_signum: int, _frame: object) -> None:
        if not cancel_first(pressed):
            raise KeyboardInterrupt

    def on_sigterm(signum: int, frame: Any) -> None:
        if not cancel_first(terminated) and callable(on_term):
            on_term(signum, frame)

    def ended() -> None:
        """After the run: what the signals asked for, now that its cleanup is done."""
        if terminated and callable(on_term):
            on_term(signal.SIGTERM, None)
        if pressed:
            raise KeyboardInterrupt

    async def watched() -> Done:
        running.append(asyncio.current_task())  # type: ignore[arg-type]
        return await main

    signal.signal(signal.SIGINT, on_sigint)
    if callable(on_term):  # SIG_DFL and SIG_IGN stay as they are
        signal.signal(signal.SIGTERM, on_sigterm)
    try:
        with asyncio.Runner(loop_factory=lambda: loop) as runner:
            try:
                result = runner.run(watched())
            except asyncio.CancelledError:
                ended()
                raise
        ended()
        return result
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if callable(on_term):
            signal.signal(signal.SIGTERM, on_term)


async def _awaited(main: Awaitable[Done]) -> Done:
    return await main

"""A hard time bound for one call in a test: a hang becomes a failure, not a stuck suite.

This is a bound on hostile input ("finishes at all"), not a performance assertion: the
limits are tens to thousands of times what the code needs. SIGALRM interrupts Python's
``re`` engine too, so a catastrophic backtrack fails the test instead of freezing it.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class TimeLimitExceeded(AssertionError):
    """The call did not finish within its bound: a hang on this input."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail with :class:`TimeLimitExceeded` if the block runs longer than ``seconds``
    (main thread only, as pytest runs tests)."""

    def _expired(_signum: int, _frame: Any) -> None:
        raise TimeLimitExceeded(f"did not finish within {seconds} s (a hang on this input)")

    previous = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

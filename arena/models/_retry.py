"""Which model errors are worth retrying, and how long to wait between attempts."""

from __future__ import annotations

import asyncio
import os
import random
from dataclasses import dataclass


class TransientModelError(Exception):
    """A model error that a retry may fix (fake models raise it in tests)."""


_TRANSIENT_NAMES = {
    "APIConnectionError",
    "APITimeoutError",
    "RateLimitError",
    "InternalServerError",
    "ServiceUnavailableError",
    "ConnectError",
    "ReadTimeout",
    "ConnectTimeout",
    "RemoteProtocolError",
    "ReadError",
}


def is_transient(exc: BaseException) -> bool:
    """Connection errors, timeouts, 429 and 5xx, anywhere in the exception's chain."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, TransientModelError | ConnectionError | asyncio.TimeoutError):
            return True
        if type(current).__name__ in _TRANSIENT_NAMES:
            return True
        status = getattr(current, "status_code", None)
        response = getattr(current, "response", None)
        status = status or getattr(response, "status_code", None)
        if isinstance(status, int) and (status == 429 or status >= 500):
            return True
        current = current.__cause__ or current.__context__
    return False


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter: base * factor**attempt, capped.

    ``attempts`` is the most attempts per call (``ARENA_RETRIES``); below 1 it is one
    attempt, no retry, and that attempt's error is the one recorded.
    """

    attempts: int = 4
    base_delay: float = 1.0
    factor: float = 2.0
    max_delay: float = 30.0

    @classmethod
    def from_env(cls) -> RetryPolicy:
        """Defaults, with ARENA_RETRIES and ARENA_RETRY_DELAY overriding."""
        return cls(
            attempts=int(os.environ.get("ARENA_RETRIES", "4")),
            base_delay=float(os.environ.get("ARENA_RETRY_DELAY", "1.0")),
        )

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (0-based)."""
        raw = min(self.max_delay, self.base_delay * self.factor**attempt)
        return raw * (0.5 + random.random() / 2)

"""Which model errors are worth retrying, and how long to wait between attempts."""

from __future__ import annotations

import asyncio
import os
import random
import re
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


# A stored run error (``Type: message``) of one of these types is the model's, not the agent's:
# the model could not be started or reached, refused the key, timed out or failed.
_MODEL_FAILURES = frozenset(
    {"ModelError", "TransientModelError", "AuthenticationError", "PermissionDeniedError",
     "APIError", "APIStatusError", *_TRANSIENT_NAMES}
)  # fmt: skip
_ERROR_TYPE = re.compile(r"^([A-Za-z_][\w.]*)(?=: )")


def model_failure(error: str | None) -> bool:
    """Whether a stored run error is the model's (it could not be started or reached, it
    timed out, refused the key or failed), not the agent's: the error's exception type, as
    the runner stores it (``ModelError: ...``), is arena's :class:`~arena.errors.ModelError`
    or a provider's connection, timeout, rate-limit, authentication or server error. An
    exception a tool raised, or the case's own time limit, is the agent's."""
    found = _ERROR_TYPE.match(error or "")
    return found is not None and found.group(1).rsplit(".", 1)[-1] in _MODEL_FAILURES


def model_failure_reason(error: str) -> str:
    """What a model failure says on one line: the headline's last ``Type: message`` line (a
    server that would not start ends its log with the exception that stopped it), else its
    first line."""
    headline = error.split("\n\n", 1)[0].strip()
    lines = [line.strip() for line in headline.splitlines() if line.strip()]
    said = [line for line in lines[1:] if _ERROR_TYPE.match(line)]
    return said[-1] if said else (lines[0] if lines else error[:200])


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

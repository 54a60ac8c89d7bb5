"""Keep API keys out of every stored or printed error.

:func:`redact` replaces the values of the environment variables that hold keys: every
``api_key_env`` a ModelConfig named in this process, the well-known key variables, and any
variable whose name ends in ``_API_KEY``. Values shorter than :data:`MIN_SECRET_LEN` are left
alone (they would blank out ordinary words). :func:`redact_exception` does the same to an
exception's message in place, so whoever formats it later sees no key.
"""

from __future__ import annotations

import contextlib
import os
import threading

KNOWN_KEY_ENVS = ("OPENAI_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY", "ANTHROPIC_API_KEY")
MIN_SECRET_LEN = 6

_CONFIGURED: set[str] = set()
_LOCK = threading.Lock()


def register_secret_env(name: str) -> None:
    """Remember that environment variable ``name`` holds a secret (ModelConfig does this for
    every ``api_key_env``)."""
    with _LOCK:
        _CONFIGURED.add(name)


def secret_values() -> dict[str, str]:
    """Secret value -> the name of the variable holding it, for the current environment."""
    with _LOCK:
        names = set(_CONFIGURED)
    names.update(KNOWN_KEY_ENVS)
    names.update(n for n in os.environ if n.upper().endswith("_API_KEY"))
    found: dict[str, str] = {}
    for name in sorted(names):
        value = os.environ.get(name, "")
        if len(value) >= MIN_SECRET_LEN:
            found.setdefault(value, name)
    return found


def redact(text: str) -> str:
    """``text`` with every secret value replaced by ``[NAME redacted]``."""
    if not text:
        return text
    # Longest first, so a key that contains another key is replaced whole.
    for value, name in sorted(secret_values().items(), key=lambda kv: -len(kv[0])):
        if value in text:
            text = text.replace(value, f"[{name} redacted]")
    return text


def redact_optional(text: str | None) -> str | None:
    """:func:`redact` that lets None through (for optional error fields)."""
    return None if text is None else redact(text)


def redact_exception(exc: BaseException) -> BaseException:
    """Redact secrets from ``exc``'s message (and its causes') in place; returns ``exc``."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        current.args = tuple(redact(a) if isinstance(a, str) else a for a in current.args)
        message = getattr(current, "message", None)
        if isinstance(message, str):
            with contextlib.suppress(AttributeError):
                current.message = redact(message)  # type: ignore[attr-defined]
        current = current.__cause__ or current.__context__
    return exc

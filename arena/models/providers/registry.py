"""The model providers, by the name a spec starts with (``local:``, ``openai:``, ``fake:``).

Adding a provider is one module defining a :class:`Provider` subclass plus one line here.
Entries are import paths, so ``import arena`` stays light and a provider's client library
loads only when it is used.
"""

from __future__ import annotations

import importlib
import threading

from arena.errors import InputError
from arena.models.providers.base import Provider

PROVIDERS: dict[str, str | Provider] = {
    "local": "arena.models.providers.local:LocalProvider",
    "openai": "arena.models.providers.openai:OpenAIProvider",
    "fake": "arena.models.providers.fake:FakeProvider",
    "human": "judges.human:HumanProvider",  # people voting in the app, never called
    "answers": "arena.outputs.provider:AnswersProvider",  # answers read from files (issue 21)
}

_LOCK = threading.Lock()


def provider_names() -> tuple[str, ...]:
    """Every registered provider name, in registration order."""
    return tuple(PROVIDERS)


def register_provider(provider: Provider | str, name: str | None = None) -> None:
    """Register a provider instance, or an import path ``package.module:Class``, at runtime.

    ``name`` defaults to the provider's own ``name``; a later registration replaces an earlier.
    """
    if name is None:
        if isinstance(provider, str):
            raise ValueError("give the name of a provider registered by import path")
        name = provider.name
    if not name or ":" in name:
        raise ValueError(f"bad provider name {name!r}")
    with _LOCK:
        PROVIDERS[name] = provider


def get_provider(name: str) -> Provider:
    """The provider registered under ``name`` (InputError naming ``model.spec`` if none)."""
    with _LOCK:
        entry = PROVIDERS.get(name)
    if entry is None:
        raise InputError(
            f"unknown model provider {name!r}; known: {', '.join(provider_names())}",
            field="model.spec",
        )
    if isinstance(entry, Provider):
        return entry
    module_name, _, attr = entry.partition(":")
    provider = getattr(importlib.import_module(module_name), attr)()
    if not isinstance(provider, Provider):
        raise TypeError(f"{entry} is not an arena.models.Provider")
    with _LOCK:
        PROVIDERS[name] = provider
    return provider

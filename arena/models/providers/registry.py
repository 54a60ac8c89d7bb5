"""The model providers, by the name a spec starts with (``local:``, ``openai:``, ``fake:``).

The entries live in :data:`arena.registry.PROVIDERS` (built-ins as import paths, so ``import
arena`` stays light and a provider's client library loads only when it is used; outside
packages through the ``agent_arena.providers`` entry points). Adding a provider is one module
defining a :class:`Provider` subclass decorated with ``@arena.registry.model_provider(name)``.
"""

from __future__ import annotations

from arena.errors import InputError
from arena.models.providers.base import Provider
from arena.registry import PROVIDERS, UnknownName


def provider_names() -> tuple[str, ...]:
    """Every registered provider name, in registration order (entry points included)."""
    return PROVIDERS.names()


def register_provider(provider: Provider | str, name: str | None = None) -> None:
    """Register a provider instance, or an import path ``package.module:Class``, at runtime.

    ``name`` defaults to the provider's own ``name``; a later registration replaces an earlier.
    """
    if name is None:
        if isinstance(provider, str):
            raise ValueError("give the name of a provider registered by import path")
        name = provider.name
    PROVIDERS.register(name, provider)


def get_provider(name: str) -> Provider:
    """The provider registered under ``name`` (InputError naming ``model.spec`` if none)."""
    try:
        provider = PROVIDERS.lookup(name)
    except UnknownName as exc:
        raise InputError(
            f"unknown model provider {name!r}; known: {', '.join(exc.known)}",
            field="model.spec",
        ) from None
    if not isinstance(provider, Provider):
        raise TypeError(f"{PROVIDERS.kind} {name!r} is not an arena.models.Provider")
    return provider

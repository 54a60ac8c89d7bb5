"""The model providers, by the name a spec starts with (``local:``, ``openai:``, ``fake:``).

The entries live in :data:`arena.registry.PROVIDERS` (built-ins as import paths, so ``import
arena`` stays light and a provider's client library loads only when it is used; outside
packages through the ``agent_arena.providers`` entry points); here it is typed with its base
class. Adding a provider is one module defining a :class:`Provider` subclass decorated with
``@model_provider(name)`` (:mod:`arena.extend`). ``PROVIDERS.lookup(name)`` gives one.
"""

from __future__ import annotations

from arena import registry
from arena.models.providers._base import Provider
from arena.registry import Registry

PROVIDERS: Registry[Provider] = registry.PROVIDERS
"""Every model provider (instances), by the name a model spec starts with."""


def provider_names() -> tuple[str, ...]:
    """Every registered provider name, in registration order (entry points included)."""
    return PROVIDERS.names()


def register_provider(
    provider: Provider | str, name: str | None = None, *, replace: bool = False
) -> None:
    """Register a provider instance, or an import path ``package.module:Class``, at run time.

    Args:
        provider: the provider, or its import path.
        name: its name (default: the provider's own ``name``).
        replace: replace a provider registered under that name already.

    Raises:
        ValueError: an import path without ``name``.
        NameTaken: the name is registered already and ``replace`` is false.
    """
    if name is None:
        if isinstance(provider, str):
            raise ValueError("give the name of a provider registered by import path")
        name = provider.name
    PROVIDERS.register(name, provider, replace=replace)

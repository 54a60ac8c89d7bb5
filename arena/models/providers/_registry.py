"""The model providers, by the name a spec starts with (``local:``, ``openai:``, ``fake:``).

The entries live in :data:`arena.registry.PROVIDERS`, typed here with its base class. Each
built-in is a module of this package (or :mod:`arena.outputs._provider`) defining a
:class:`Provider` subclass decorated with ``@model_provider(name, summary)``, the decorator a
plugin uses (:mod:`arena.extend`; outside packages also through ``agent_arena.providers``
entry points). The modules load when the registry is first read, and a provider's client
library only when it is used. ``PROVIDERS.lookup(name)`` gives one.
"""

from __future__ import annotations

from arena import registry
from arena.models.providers._base import Provider
from arena.registry import Registry

PROVIDERS: Registry[Provider] = registry.PROVIDERS
"""Every model provider (instances), by the name a model spec starts with."""


def provider_names() -> tuple[str, ...]:
    """Every registered provider name, the built-ins first (entry points included)."""
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

"""The model providers, by the name a spec starts with (``local:``, ``openai:``, ``fake:``).

The registry lives here, beside its base class (:mod:`arena.models.providers._base` declares it,
so this module imports no model library and help texts read it). Each built-in is a module of
this package defining a :class:`Provider` subclass decorated with ``@model_provider(name,
summary)``, the decorator a plugin uses (:mod:`arena.extend`; outside packages also through
``agent_arena.providers`` entry points). The modules load when the registry is first read, and a
provider's client library only when it is used. ``PROVIDERS.lookup(name)`` gives one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from arena.registry import Registry, adapt_instance_named, entry_point_group

F = TypeVar("F")

PROVIDERS: Registry[Any] = Registry(
    "model provider",
    entry_point_group("providers"),
    declared_by="model_provider",
    homes=(__package__,),
    base_declared_later=True,
    adapt=adapt_instance_named,
)
"""Every model provider (instances of :class:`~arena.models.providers._base.Provider`, which
declares itself the base), by the name a model spec starts with (``local:``, ``openai:``,
...). Typed ``Registry[Provider]`` as :data:`arena.models.providers._base.PROVIDERS`."""


def model_provider(
    name: str, summary: str | None = None, *, replace: bool = False, order: int | None = None
) -> Callable[[F], F]:
    """Register a :class:`Provider` subclass (or instance) for model specs ``name:MODEL``.

    Args:
        name: the part of a model spec before the colon.
        summary: one line for ``arena --help`` (default: the first docstring line).
        replace: replace a provider already registered as ``name`` (a built-in included).
        order: its place in listings: the built-ins (defined under the kind's home) come
            first, by ``order``; then every other entry, those with an ``order`` by it,
            then the rest in registration order.

    Returns:
        A decorator registering the class and returning it unchanged.

    Raises:
        NameTaken: ``name`` is registered already and ``replace`` is false.
        TypeError: the decorated object is not a ``Provider``.
    """
    return PROVIDERS.decorator(name, summary, replace=replace, order=order)


def provider_names() -> tuple[str, ...]:
    """Every registered provider name, the built-ins first (entry points included)."""
    return PROVIDERS.names()


def register_provider(provider: Any, name: str | None = None, *, replace: bool = False) -> None:
    """Register a provider instance, or an import path ``package.module:Class``, at run time.

    Args:
        provider: the provider (a :class:`~arena.models.providers._base.Provider`), or its
            import path.
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

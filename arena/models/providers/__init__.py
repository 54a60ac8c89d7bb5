"""Model providers behind one registry: one module per provider, one registry line each."""

from arena.models.providers.base import Provider
from arena.models.providers.registry import (
    PROVIDERS,
    get_provider,
    provider_names,
    register_provider,
)

__all__ = ["PROVIDERS", "Provider", "get_provider", "provider_names", "register_provider"]

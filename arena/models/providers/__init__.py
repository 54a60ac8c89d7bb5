"""Model providers behind one registry: one decorated module per provider."""

from arena.models.providers._base import Provider
from arena.models.providers._registry import (
    PROVIDERS,
    provider_names,
    register_provider,
)

__all__ = ["PROVIDERS", "Provider", "provider_names", "register_provider"]

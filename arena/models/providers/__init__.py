"""Model providers behind one registry: one decorated module per provider.

The registry and its decorator load with the package; :class:`Provider` (and a model
library with it) on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.models.providers._registry import (
    PROVIDERS,
    model_provider,
    provider_names,
    register_provider,
)

if TYPE_CHECKING:  # the real name, for type checkers
    from arena.models.providers._base import Provider

__all__ = ["PROVIDERS", "Provider", "model_provider", "provider_names", "register_provider"]


def __getattr__(name: str) -> Any:
    if name == "Provider":
        from arena.models.providers._base import Provider

        return Provider
    raise AttributeError(f"module 'arena.models.providers' has no attribute {name!r}")

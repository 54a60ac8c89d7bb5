"""Per-endpoint concurrency limits that hold across every worker of a cluster.

An API's rate limit is per key, not per worker: every model request a Ray worker sends first
takes a lease from one shared limiter (a named Ray actor, :class:`EndpointLeases`), keyed by
the endpoint (provider, base URL and the *name* of the key's variable, never the key). A lease
expires on its own after the request's timeout and a margin, so a worker killed while holding
one does not block the endpoint for ever.

The limiter itself is plain asyncio (tested without Ray); :func:`limit_providers` wraps every
registered model provider so the models it builds take a lease around each request.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import TYPE_CHECKING, Any, Protocol

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import ConfigDict

from arena.models.providers._base import Provider

if TYPE_CHECKING:
    from arena.models._config import ModelConfig
    from arena.models.providers._speed import Speed

LEASE_MARGIN_S = 5.0
"""Seconds a lease outlives its request's timeout (then it is taken back)."""


def endpoint_key(config: ModelConfig, node: str = "") -> str | None:
    """What a concurrency limit is per, as the model's provider declares it
    (:meth:`~arena.models.providers._base.Provider.endpoint_key`): the endpoint and the key's
    variable name, one server per node for a shared server; None for models that reach no
    endpoint."""
    from arena.models.providers import PROVIDERS

    return PROVIDERS.lookup(config.provider).endpoint_key(config, node)


def node_served(config: ModelConfig) -> bool:
    """Whether the Ray executor serves the model from one llama.cpp server per node: its
    provider is (or wraps) the embedded :class:`~arena.models.providers._local.LocalProvider`,
    under whatever name it is registered."""
    from arena.models.providers import PROVIDERS
    from arena.models.providers._local import LocalProvider

    provider = PROVIDERS.lookup(config.provider)
    return isinstance(getattr(provider, "inner", provider), LocalProvider)


class EndpointLeases:
    """At most ``limit`` leases per endpoint at once; waiters are served as leases return."""

    def __init__(self) -> None:
        self._limits: dict[str, int] = {}
        self._leases: dict[str, dict[int, float]] = {}
        self._peak: dict[str, int] = {}
        self._changed = asyncio.Condition()
        self._ids = itertools.count(1)

    async def set_limit(self, endpoint: str, limit: int) -> None:
        """Allow ``limit`` (at least 1) concurrent leases on ``endpoint`` from now on."""
        async with self._changed:
            self._limits[endpoint] = max(1, int(limit))
            self._changed.notify_all()

    def _live(self, endpoint: str) -> dict[int, float]:
        leases = self._leases.setdefault(endpoint, {})
        now = time.monotonic()
        for lease, expires in list(leases.items()):
            if expires <= now:  # its holder died or hung: take it back
                del leases[lease]
        return leases

    async def acquire(self, endpoint: str, lease_s: float) -> int:
        """Wait for a free slot; return the lease id (released by :meth:`release` or after
        ``lease_s`` seconds)."""
        async with self._changed:
            while len(self._live(endpoint)) >= self._limits.get(endpoint, 1):
                leases = self._leases[endpoint]
                wait = min(leases.values()) - time.monotonic() if leases else 0.05
                with suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), timeout=max(wait, 0.01))
            lease = next(self._ids)
            self._leases[endpoint][lease] = time.monotonic() + lease_s
            self._peak[endpoint] = max(self._peak.get(endpoint, 0), len(self._leases[endpoint]))
            return lease

    async def release(self, endpoint: str, lease: int) -> None:
        """Give a lease back (no error if it already expired)."""
        async with self._changed:
            self._leases.get(endpoint, {}).pop(lease, None)
            self._changed.notify_all()

    async def stats(self) -> dict[str, dict[str, int]]:
        """Per endpoint: ``limit``, leases ``in_use`` now and the ``peak`` seen."""
        async with self._changed:
            names = sorted(set(self._leases) | set(self._limits))
            return {
                e: {
                    "limit": self._limits.get(e, 1),
                    "in_use": len(self._live(e)),
                    "peak": self._peak.get(e, 0),
                }
                for e in names
            }


class Slots(Protocol):
    """How a model takes a lease: an async context manager per request."""

    def slot(self, endpoint: str, lease_s: float) -> Any: ...


class LocalSlots:
    """:class:`EndpointLeases` in this process (tests, and the shape the Ray client follows)."""

    def __init__(self, limits: EndpointLeases) -> None:
        self.limits = limits

    @asynccontextmanager
    async def slot(self, endpoint: str, lease_s: float) -> AsyncIterator[None]:
        lease = await self.limits.acquire(endpoint, lease_s)
        try:
            yield
        finally:
            await self.limits.release(endpoint, lease)


class LimitedChatModel(BaseChatModel):
    """A raw chat model whose every request holds a lease on its endpoint."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: BaseChatModel
    endpoint: str
    slots: Any
    lease_s: float
    logprobs: bool | None = None  # what CachingChatModel asks the raw model

    @property
    def _llm_type(self) -> str:
        return "arena-limited"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        async def limited() -> ChatResult:
            async with self.slots.slot(self.endpoint, self.lease_s):
                return await self.inner._agenerate(messages, stop=stop, **kwargs)

        return asyncio.run(limited())

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        async with self.slots.slot(self.endpoint, self.lease_s):
            return await self.inner._agenerate(messages, stop=stop, **kwargs)


class LimitedProvider(Provider):
    """Another provider whose models take a lease per request; everything else (checks, keys,
    cache identity) is the wrapped provider's, so cache keys do not change."""

    def __init__(self, inner: Provider, slots: Slots, node: str = "") -> None:
        self.inner, self.slots, self.node = inner, slots, node

    def build(self, config: ModelConfig) -> BaseChatModel:
        model = self.inner.build(config)
        endpoint = self.inner.endpoint_key(config, self.node)
        if endpoint is None:
            return model
        return LimitedChatModel(
            inner=model,
            endpoint=endpoint,
            slots=self.slots,
            lease_s=config.timeout + LEASE_MARGIN_S,
            logprobs=getattr(model, "logprobs", None),
        )

    def key_env(self, config: ModelConfig) -> str | None:
        return self.inner.key_env(config)

    def api_key(self, config: ModelConfig) -> str | None:
        return self.inner.api_key(config)

    def check(self, config: ModelConfig) -> None:
        self.inner.check(config)

    def identity(self, config: ModelConfig) -> dict[str, Any]:
        return self.inner.identity(config)

    def refusal(self, config: ModelConfig) -> str:
        return self.inner.refusal(config)

    def endpoint_key(self, config: ModelConfig, node: str = "") -> str | None:
        return self.inner.endpoint_key(config, node)

    def server_slots(self) -> int:
        return self.inner.server_slots()

    def speed(self, config: ModelConfig, measure: bool = True) -> Speed:
        return self.inner.speed(config, measure)


def limited(inner: Provider, slots: Slots, node: str = "") -> LimitedProvider:
    """``inner`` wrapped, keeping its ``name`` and every declared capability."""
    attrs = {cap: getattr(inner, cap) for cap in Provider.CAPABILITIES}
    cls = type(f"Limited{type(inner).__name__}", (LimitedProvider,), {"name": inner.name, **attrs})
    provider: LimitedProvider = cls(inner, slots, node)
    return provider


def limit_providers(slots: Slots, node: str = "") -> None:
    """Wrap every registered provider of this process (idempotent)."""
    from arena.models.providers import PROVIDERS, provider_names, register_provider

    for name in provider_names():
        provider = PROVIDERS.lookup(name)
        if not isinstance(provider, LimitedProvider):
            register_provider(limited(provider, slots, node), name=name, replace=True)

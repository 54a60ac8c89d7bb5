"""What a model provider is: how to build a chat model from a ModelConfig, and what it needs."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, ClassVar

from arena.errors import InputError, ModelError
from arena.models.providers import _registry
from arena.models.providers._speed import CALL_LATENCY_S, Speed
from arena.registry import Registry
from arena.secrets import redact_url

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from arena.models._config import ModelConfig


class Provider:
    """One kind of chat model, selected by the part of a model spec before the colon.

    Subclass it, set ``name``, implement :meth:`build`, and decorate it with
    ``@arena.extend.model_provider(name)`` (or name it in an ``agent_arena.providers``
    entry point). Keep the module light: import client libraries inside :meth:`build`.

    What the rest of arena does with a provider's models follows from its declared
    capabilities (the class attributes below and the methods :meth:`endpoint_key`,
    :meth:`server_slots` and :meth:`speed`), never from its name: a plugin declaring the
    capabilities of a built-in is treated exactly like it.
    """

    name: ClassVar[str] = ""
    supports_logprobs: ClassVar[bool] = False
    """The model can return token log-probabilities (the logprobs judge modes need them)."""
    is_callable: ClassVar[bool] = True
    """A spec names a model that can be called at all (False: a person, answers from a file:
    building it is an InputError saying :meth:`refusal`, and it cannot be a judge)."""
    reaches_network: ClassVar[bool] = True
    """A call goes to an endpoint (counted against that endpoint's concurrency limit and
    timed at :data:`~arena.models.providers._speed.CALL_LATENCY_S` per call when nothing is
    measured). False: scripted or uncallable, unlimited and instant."""
    shared_server: ClassVar[bool] = False
    """One server per machine (per node under Ray) serves every worker: concurrency is
    capped per node and at most :meth:`server_slots` requests run at once."""
    default_judge_mode: ClassVar[str] = "text"
    """The judge mode of a judge given as a bare spec (``arena judge --judge SPEC``)."""
    person: ClassVar[bool] = False
    """A spec names a person voting in the app (a judge of kind ``human``), not a model."""

    #: The capability attributes, copied by wrappers such as the Ray concurrency limiter.
    CAPABILITIES: ClassVar[tuple[str, ...]] = (
        "supports_logprobs",
        "is_callable",
        "reaches_network",
        "shared_server",
        "default_judge_mode",
        "person",
    )

    def build(self, config: ModelConfig) -> BaseChatModel:
        """The raw chat model for this config (no caching, no retries)."""
        raise NotImplementedError

    def key_env(self, config: ModelConfig) -> str | None:
        """Name of the environment variable that must hold the API key (None: no key)."""
        return config.api_key_env

    def api_key(self, config: ModelConfig) -> str | None:
        """The API key from the environment (ModelError if it is needed and unset)."""
        env = self.key_env(config)
        if env is None:
            return None
        value = os.environ.get(env)
        if not value:
            raise ModelError(f"model {config.spec}: {_unset(env)}")
        return value

    def check(self, config: ModelConfig) -> None:
        """Fail before any call (InputError naming the field) if the model cannot be built:
        here, an API key variable that is not set."""
        env = self.key_env(config)
        if env is not None and not os.environ.get(env):
            raise InputError(f"model {config.spec}: {_unset(env)}", field="model.api_key_env")

    def identity(self, config: ModelConfig) -> dict[str, Any]:
        """What besides spec and sampling makes two calls interchangeable (cache identity).

        Never keys, ports or timeouts. The default: the endpoint.
        """
        return {"base_url": redact_url(config.base_url or "") or None, "template": None}

    def refusal(self, config: ModelConfig) -> str:
        """Why ``config`` cannot be called (used when :attr:`is_callable` is False)."""
        return f"{config.spec} cannot be called"

    def endpoint_key(self, config: ModelConfig, node: str = "") -> str | None:
        """What a concurrency limit is per: the endpoint and the *name* of the key's variable
        (never the key); for a :attr:`shared_server`, the model's server on ``node``; None
        for a provider that does not :attr:`reach the network <reaches_network>`."""
        if not self.reaches_network:
            return None
        if self.shared_server:
            return f"{config.provider}:{config.name}@{node}"
        return f"{config.provider}|{config.base_url or 'default'}|{config.api_key_env or ''}"

    def server_slots(self) -> int:
        """Requests a :attr:`shared_server` runs at once (more workers only queue)."""
        return 1

    def speed(self, config: ModelConfig, measure: bool = True) -> Speed:
        """How fast the model answers, for ``arena plan`` (its speed probe).

        The default assumes :data:`~arena.models.providers._speed.CALL_LATENCY_S` per call
        for a model that reaches the network, nothing otherwise; override it to measure
        (only when ``measure``; a probe may start a server).
        """
        per_call = CALL_LATENCY_S if self.reaches_network else 0.0
        return Speed(per_call_s=per_call, shared=self.shared_server, source="dataset")


PROVIDERS: Registry[Provider] = _registry.PROVIDERS
"""The provider registry (:data:`arena.models.providers._registry.PROVIDERS`), typed."""
PROVIDERS.declare_base(Provider)


class UncallableProvider(Provider):
    """A spec that names no model (a person, answers read from a file): no key, one cache
    identity, and building it is an InputError saying :meth:`refusal`."""

    is_callable = False
    reaches_network = False

    def key_env(self, config: ModelConfig) -> str | None:
        return None

    def identity(self, config: ModelConfig) -> dict[str, Any]:
        return {"base_url": None, "template": None}

    def build(self, config: ModelConfig) -> BaseChatModel:
        raise InputError(self.refusal(config), field="model.spec")


def _unset(env: str) -> str:
    return (
        f"environment variable {env} is not set "
        "(it must hold the API key; keys are never read from files)"
    )

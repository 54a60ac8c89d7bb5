"""What a model provider is: how to build a chat model from a ModelConfig, and what it needs."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, ClassVar

from arena.errors import InputError, ModelError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from arena.models.config import ModelConfig


class Provider:
    """One kind of chat model, selected by the part of a model spec before the colon.

    Subclass it, set ``name`` (and ``supports_logprobs`` if the model can return token
    log-probabilities), implement :meth:`build`, and decorate it with
    ``@arena.registry.model_provider(name)`` (or name it in an ``agent_arena.providers``
    entry point).
    Keep the module light: import client libraries inside :meth:`build`.
    """

    name: ClassVar[str] = ""
    supports_logprobs: ClassVar[bool] = False

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
        return {"base_url": config.base_url, "template": None}


class UncallableProvider(Provider):
    """A spec that names no model (a person, answers read from a file): no key, one cache
    identity, and building it is an InputError saying :meth:`refusal`."""

    def refusal(self, config: ModelConfig) -> str:
        """Why ``config`` cannot be called."""
        return f"{config.spec} cannot be called"

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

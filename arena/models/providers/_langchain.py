"""``langchain:PROVIDER:MODEL``: any LangChain chat model, built by LangChain's universal
initializer (``init_chat_model``) with the provider's own package.

``langchain:anthropic:claude-3-5-haiku-latest`` is ``ChatAnthropic`` from
``langchain-anthropic`` (``pip install 'agent-arena[anthropic]'``), with native tool calling
and token usage. A variant's settings are passed the provider's way (:data:`SETTINGS`); the
client's own retries are off (the arena retries 429, 5xx, timeouts and malformed replies
itself, then records an error).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

from arena.errors import InputError
from arena.models.providers._base import Provider
from arena.models.providers._registry import model_provider

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from arena.models._config import ModelConfig

PACKAGES = {
    "anthropic": ("langchain_anthropic", "anthropic", "ANTHROPIC_API_KEY"),
    "mistralai": ("langchain_mistralai", "mistralai", "MISTRAL_API_KEY"),
    "google_genai": ("langchain_google_genai", "google", "GOOGLE_API_KEY"),
    "bedrock_converse": ("langchain_aws", "bedrock", None),
    "openai": ("langchain_openai", None, "OPENAI_API_KEY"),
}
"""Per LangChain provider: its module, the agent-arena extra that installs it (None: always
installed) and the variable its key is read from when the variant names none (None: the
provider's own credentials chain, e.g. AWS's)."""

SETTINGS: dict[str, dict[str, str]] = {
    "default": {
        "temperature": "temperature",
        "max_tokens": "max_tokens",
        "timeout": "timeout",
        "base_url": "base_url",
        "api_key": "api_key",
    },
    "mistralai": {"base_url": "endpoint"},
    "google_genai": {"max_tokens": "max_output_tokens", "base_url": "base_url"},
    "bedrock_converse": {"base_url": "endpoint_url", "api_key": ""},
}
"""How a variant's settings are named by each provider's chat model ("" : not passed);
providers not listed take the defaults."""


def split(config: ModelConfig) -> tuple[str, str]:
    """(LangChain provider, model) of ``langchain:PROVIDER:MODEL``."""
    provider, _, model = config.name.partition(":")
    return provider, model


def client_kwargs(config: ModelConfig, api_key: str | None) -> dict[str, Any]:
    """The chat model's keyword arguments: the variant's settings under the provider's names,
    the client's own retries off, then the variant's ``extra``."""
    provider, _ = split(config)
    names = {**SETTINGS["default"], **SETTINGS.get(provider, {})}
    values: dict[str, Any] = {
        "temperature": config.temperature,
        "max_tokens": config.max_tokens,
        "timeout": config.timeout,
        "base_url": config.base_url,
        "api_key": api_key,
    }
    kwargs = {names[k]: v for k, v in values.items() if names.get(k) and v is not None}
    kwargs["max_retries"] = 0
    return {**kwargs, **config.extra}


@model_provider("langchain", "any LangChain chat model: langchain:PROVIDER:MODEL", order=25)
class LangChainProvider(Provider):
    """A chat model from LangChain's ``init_chat_model`` (its provider package installed)."""

    name = "langchain"
    supports_logprobs = False

    def key_env(self, config: ModelConfig) -> str | None:
        provider, _ = split(config)
        default = PACKAGES.get(provider, (None, None, None))[2]
        return config.api_key_env or (default if config.base_url is None else None)

    def check(self, config: ModelConfig) -> None:
        """The spec names a provider and model, its package is installed, its key is set."""
        provider, model = split(config)
        if not provider or not model:
            raise InputError(
                f"model spec {config.spec!r} must look like langchain:PROVIDER:MODEL, "
                "e.g. langchain:anthropic:claude-3-5-haiku-latest",
                field="model.spec",
            )
        module, extra, _ = PACKAGES.get(provider, (f"langchain_{provider}", None, None))
        if importlib.util.find_spec(module) is None:
            how = f"pip install 'agent-arena[{extra}]'" if extra else f"pip install {module}"
            raise InputError(
                f"model {config.spec}: LangChain's {provider} package ({module}) is not "
                f"installed: {how}",
                field="model.spec",
            )
        super().check(config)

    def build(self, config: ModelConfig) -> BaseChatModel:
        from langchain.chat_models import init_chat_model

        self.check(config)
        provider, model = split(config)
        built: BaseChatModel = init_chat_model(
            model, model_provider=provider, **client_kwargs(config, self.api_key(config))
        )
        return built

"""``openai:MODEL``: any OpenAI-compatible endpoint through langchain-openai's ChatOpenAI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.models.providers._base import Provider
from arena.models.providers._registry import model_provider

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from arena.models._config import ModelConfig


MAX_CONNECTIONS = 100
"""Connections per model client, all kept alive between requests (httpx keeps only 20 by
default, so at a concurrency above 20 it closed and reopened connections all the time)."""


def http_clients(config: ModelConfig) -> dict[str, Any]:
    """Own HTTP clients per model for ChatOpenAI, reused by every request to that model.

    langchain-openai's shared async client stays bound to the first event loop, which breaks
    a second asyncio.run() in the same process. The clients come from httpx2, the openai
    SDK's own HTTP library, when it is installed: at high concurrency it costs markedly less
    CPU per request than legacy httpx, whose connection pool rescans every connection for
    each request.
    """
    try:
        import httpx2 as httpx
    except ImportError:  # an older openai SDK: legacy httpx
        import httpx  # type: ignore[no-redef]
    limits = httpx.Limits(
        max_connections=MAX_CONNECTIONS, max_keepalive_connections=MAX_CONNECTIONS
    )
    return {
        "http_client": httpx.Client(timeout=config.timeout, limits=limits),
        "http_async_client": httpx.AsyncClient(timeout=config.timeout, limits=limits),
    }


@model_provider("openai", "any OpenAI-compatible endpoint", order=20)
class OpenAIProvider(Provider):
    """OpenAI or any compatible server (``base_url``); the key comes from ``api_key_env``,
    or ``OPENAI_API_KEY`` when no ``base_url`` is given."""

    name = "openai"
    supports_logprobs = True

    def key_env(self, config: ModelConfig) -> str | None:
        return config.api_key_env or ("OPENAI_API_KEY" if config.base_url is None else None)

    def build(self, config: ModelConfig) -> BaseChatModel:
        from arena.models._lean_openai import LeanChatOpenAI

        return LeanChatOpenAI(
            model=config.name,
            base_url=config.base_url,
            api_key=self.api_key(config) or "unused",
            temperature=config.temperature,
            max_tokens=config.max_tokens,
            timeout=config.timeout,
            max_retries=0,
            **http_clients(config),
            **config.extra,
        )

"""One factory for every chat model: local llama.cpp, OpenAI-compatible, or scripted fake."""

from __future__ import annotations

import os
from typing import Any

from langchain_core.language_models import BaseChatModel

from arena.errors import ModelError
from arena.models.config import ModelConfig


def make_chat_model(config: ModelConfig) -> BaseChatModel:
    """Build the raw chat model a ModelConfig names (no caching, no retries).

    ``local:`` starts (or reuses) the embedded llama.cpp server; ``openai:`` builds
    ``ChatOpenAI`` for any compatible endpoint; ``fake:`` plays a registered script.
    """
    if config.provider == "fake":
        from arena.models.fake import FakeChatModel, fake_script

        fake_script(config.name)
        return FakeChatModel(script=config.name)
    if config.provider == "local":
        from arena.models.json_tools import JsonToolChatOpenAI
        from arena.models.local_server import server_pool

        server = server_pool().get(config.name)
        return JsonToolChatOpenAI(
            base_url=server.base_url, api_key="unused", model=config.name,
            temperature=config.temperature, max_tokens=config.max_tokens,
            timeout=config.timeout, max_retries=0, **_clients(config), **config.extra,
        )
    return _openai(config)


def _openai(config: ModelConfig) -> BaseChatModel:
    from langchain_openai import ChatOpenAI

    env_name = config.api_key_env or ("OPENAI_API_KEY" if config.base_url is None else None)
    api_key = os.environ.get(env_name) if env_name else "unused"
    if not api_key:
        raise ModelError(f"model {config.spec}: environment variable {env_name} is not set "
                         "(it must hold the API key; keys are never read from files)")
    return ChatOpenAI(
        model=config.name, base_url=config.base_url, api_key=api_key,
        temperature=config.temperature, max_tokens=config.max_tokens,
        timeout=config.timeout, max_retries=0, **_clients(config), **config.extra,
    )


def _clients(config: ModelConfig) -> dict[str, Any]:
    # Own HTTP clients per model: langchain-openai's shared async client stays bound to the
    # first event loop, which breaks a second asyncio.run() in the same process.
    import httpx

    return {"http_client": httpx.Client(timeout=config.timeout),
            "http_async_client": httpx.AsyncClient(timeout=config.timeout)}

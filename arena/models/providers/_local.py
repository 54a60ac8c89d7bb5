"""``local:NAME``: the embedded llama.cpp model, served on 127.0.0.1 for the whole run."""

from __future__ import annotations

import functools
import hashlib
from typing import TYPE_CHECKING, Any

from arena.models.providers._base import Provider
from arena.models.providers._registry import model_provider
from arena.models.providers._speed import Speed

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from arena.models._config import ModelConfig


@functools.cache
def template_hash() -> str:
    """Short hash of the chat template the local server renders prompts with."""
    from arena.models._local_server import TEMPLATE

    return hashlib.sha256(TEMPLATE.read_bytes()).hexdigest()[:12]


@model_provider("local", "the embedded llama.cpp server", order=10)
class LocalProvider(Provider):
    """Starts (or reuses) the embedded llama.cpp server and reaches it like OpenAI.

    One server per machine serves every worker (:attr:`shared_server`), a few requests at
    once; its speed is measured with one short request; judges default to the ``auto`` mode:
    the checklist (measured most accurate on golden-decisive pairs, docs/judges-checklist.md)
    where a case has golden items, else the mode measured best against people on open-ended
    answers (docs/judges.md, "Open-ended answers").
    """

    name = "local"
    supports_logprobs = True
    shared_server = True
    default_judge_mode = "auto"

    def server_slots(self) -> int:
        from arena.models.providers._local_speed import server_slots

        return server_slots()

    def speed(self, config: ModelConfig, measure: bool = True) -> Speed:
        if not measure:
            return super().speed(config, measure)
        from arena.models.providers import _local_speed as local_speed

        return local_speed.probe_local(config.spec)

    def key_env(self, config: ModelConfig) -> str | None:
        return None

    def identity(self, config: ModelConfig) -> dict[str, Any]:
        # The port changes every run, so the endpoint is not part of the identity; the chat
        # template is, so editing it invalidates the cache.
        return {"base_url": None, "template": template_hash()}

    def build(self, config: ModelConfig) -> BaseChatModel:
        from arena.models._local_server import server_pool

        return self.client(config, server_pool().get(config.name).base_url)

    @staticmethod
    def client(config: ModelConfig, base_url: str) -> BaseChatModel:
        """The OpenAI-compatible client of a llama.cpp server at ``base_url``."""
        from arena.models._json_tools import JsonToolChatOpenAI
        from arena.models.providers._openai import http_clients

        return JsonToolChatOpenAI(
            base_url=base_url,
            api_key="unused",
            model=config.name,
            temperature=config.temperature,
            max_tokens=config.max_tokens,
            timeout=config.timeout,
            max_retries=0,
            **http_clients(config),
            **config.extra,
        )

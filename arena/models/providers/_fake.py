"""``fake:NAME``: a scripted chat model for tests (``arena.models.register_fake``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.models.providers._base import Provider
from arena.models.providers._registry import model_provider

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from arena.models._config import ModelConfig


@model_provider("fake", "a scripted model (tests)", order=30)
class FakeProvider(Provider):
    """Plays a registered script; scripts may carry log-probabilities in response metadata."""

    name = "fake"
    supports_logprobs = True
    reaches_network = False

    def key_env(self, config: ModelConfig) -> str | None:
        return None

    def identity(self, config: ModelConfig) -> dict[str, Any]:
        return {"base_url": None, "template": None}

    def build(self, config: ModelConfig) -> BaseChatModel:
        from arena.models._fake import FakeChatModel, fake_script

        fake_script(config.name)
        return FakeChatModel(script=config.name)

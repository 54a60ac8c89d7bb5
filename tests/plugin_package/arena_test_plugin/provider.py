"""``parrot:NAME``: a model that repeats the question (a scripted fake under the hood)."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage

from arena.extend import FakeChatModel, ModelConfig, Provider, model_provider, register_fake


def _parrot(messages: list[BaseMessage]) -> str:
    humans = [m for m in messages if isinstance(m, HumanMessage)]
    return f"The parrot says: {humans[-1].content}" if humans else "The parrot says nothing."


register_fake("parrot", [_parrot], cycle=True)


@model_provider("parrot", "repeats the last user message (a plugin's provider)")
class ParrotProvider(Provider):
    """repeats the last user message, word for word"""

    def key_env(self, config: ModelConfig) -> str | None:
        return None

    def identity(self, config: ModelConfig) -> dict[str, Any]:
        return {"base_url": None, "template": None}

    def build(self, config: ModelConfig) -> BaseChatModel:
        return FakeChatModel(script="parrot")

"""``answers:NAME``: the model of a variant whose answers were read from a file; never called."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.errors import InputError
from arena.models.providers.base import Provider

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from arena.models.config import ModelConfig


class AnswersProvider(Provider):
    """Answers made elsewhere (``arena judge --outputs``): there is no model to call."""

    name = "answers"

    def key_env(self, config: ModelConfig) -> str | None:
        return None

    def identity(self, config: ModelConfig) -> dict[str, Any]:
        return {"base_url": None, "template": None}

    def build(self, config: ModelConfig) -> BaseChatModel:
        raise InputError(
            f"{config.spec} holds answers read from a file (arena judge --outputs); it "
            "cannot be run or used as a judge",
            field="model.spec",
        )

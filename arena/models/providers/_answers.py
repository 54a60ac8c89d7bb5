"""``answers:NAME``: the model of a variant whose answers were read from a file; never called."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.models.providers._base import UncallableProvider
from arena.models.providers._registry import model_provider

if TYPE_CHECKING:
    from arena.models._config import ModelConfig


@model_provider(
    "answers", "answers read from files (arena judge --outputs), never called", order=50
)
class AnswersProvider(UncallableProvider):
    """Answers made elsewhere (``arena judge --outputs``): there is no model to call."""

    name = "answers"

    def refusal(self, config: ModelConfig) -> str:
        return (
            f"{config.spec} holds answers read from a file (arena judge --outputs); it "
            "cannot be run or used as a judge"
        )

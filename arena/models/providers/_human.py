"""``human:NAME``: people as judges, whose verdicts are votes cast in the app.

A person is registered as the model provider ``human`` so that ``human:alice`` is a valid
spec and every human vote is a battle like any other, with its own judge key (and its own
Bradley-Terry ratings). Nothing can call a person: building the "model" is bad input. Voter
names and ``human:NAME`` judge specs are :mod:`judges._human`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.models.providers._base import UncallableProvider
from arena.models.providers._registry import model_provider

if TYPE_CHECKING:
    from arena.models._config import ModelConfig

HUMAN = "human"


@model_provider("human", "people voting in the app, never called", order=40)
class HumanProvider(UncallableProvider):
    """``human:NAME``: a person voting in the app's Vote tab; never called."""

    name = HUMAN
    person = True

    def refusal(self, config: ModelConfig) -> str:
        return (
            f"{config.spec} is a person, not a model: people vote in the app's Vote tab "
            "(`arena app`)"
        )

"""People as judges: ``human:NAME`` specs, whose verdicts are votes cast in the app.

A person is registered as the model provider ``human`` so that ``human:alice`` is a valid
spec and every human vote is a battle like any other, with its own judge key (and its own
Bradley-Terry ratings). Nothing can call a person: building the "model" is bad input.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from arena.errors import InputError
from arena.models.providers._base import UncallableProvider

if TYPE_CHECKING:
    from arena.models._config import ModelConfig
    from judges._types import JudgeSpec

HUMAN = "human"
_NAME = re.compile(r"^[\w.@+-]{1,64}$")


class HumanProvider(UncallableProvider):
    """``human:NAME``: a person voting in the app's Vote tab; never called."""

    name = HUMAN
    person = True

    def refusal(self, config: ModelConfig) -> str:
        return (
            f"{config.spec} is a person, not a model: people vote in the app's Vote tab "
            "(`arena app`)"
        )


def voter_name(name: str) -> str:
    """A voter's name, stripped; InputError unless 1-64 letters, digits or ``._@+-``."""
    clean = name.strip().replace(" ", "_")
    if not _NAME.match(clean):
        raise InputError(
            f"voter name must be 1-64 letters, digits or . _ @ + -, got {name!r}", field="name"
        )
    return clean


def human_judge(name: str) -> JudgeSpec:
    """The judge spec of one person: ``human:NAME`` (kind ``human``).

    Args:
        name: the voter's name.

    Returns:
        The spec their votes are stored under.
    """
    from arena.models._config import ModelConfig
    from judges._types import JudgeSpec

    return JudgeSpec(kind="human", model=ModelConfig(spec=f"{HUMAN}:{voter_name(name)}"))


def is_human_label(judge: str) -> bool:
    """A person's judge as it appears in a battle log (``human:NAME``): a label whose
    provider declares :attr:`~arena.models.providers._base.Provider.person`."""
    from arena.registry import PROVIDERS

    head, sep, _ = judge.partition(":")
    if not sep or "/" in judge or head not in PROVIDERS:
        return False
    return bool(getattr(PROVIDERS.lookup(head), "person", False))

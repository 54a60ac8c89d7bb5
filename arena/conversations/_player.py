"""Who speaks for the user in a conversation case: one protocol, scripted or simulated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from arena.records.dialogue import DialogueTurn, EndedBy


@dataclass(frozen=True)
class UserMove:
    """The user's next move: a message, or the end of the conversation.

    ``text`` None ends the conversation, ``ended_by`` saying why ("script", "user",
    "condition"). ``error`` ("KIND: why", KIND one of
    :data:`arena.records.dialogue.SIMULATOR_ERROR_KINDS`) marks a simulator failure: the
    conversation stops there and the run counts as a simulator error.
    """

    text: str | None
    ended_by: EndedBy | None = None
    error: str | None = None
    model_calls: int = 0
    fresh_model_calls: int = 0


class UserPlayer(Protocol):
    """Plays the user after the case's first message."""

    async def next_move(self, turns: Sequence[DialogueTurn]) -> UserMove:
        """The user's move after ``turns`` (every turn so far, the last one with the
        agent's reply)."""
        ...

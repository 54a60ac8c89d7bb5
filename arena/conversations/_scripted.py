"""The scripted user: the case's fixed follow-ups, each optionally conditioned on the agent's
last reply."""

from __future__ import annotations

from collections.abc import Sequence

from arena.conversations._player import UserMove
from arena.golden import Conversation
from arena.records.dialogue import DialogueTurn


class ScriptedPlayer:
    """Plays ``conversation.turns`` in order after the case's input.

    Turn ``n`` (2-based, after the input) is the script's item ``n - 2``. An item with a
    ``when`` check is sent only if the agent's last reply meets it; otherwise its
    ``otherwise`` message is sent, or the dialogue ends (``ended_by="condition"``). When the
    script runs out, the dialogue ends (``ended_by="script"``).
    """

    def __init__(self, conversation: Conversation) -> None:
        self.turns = list(conversation.turns)

    async def next_move(self, turns: Sequence[DialogueTurn]) -> UserMove:
        """The next scripted message after ``turns`` (the last one holds the agent's reply)."""
        if not turns:
            raise ValueError("a scripted user speaks after the agent's first reply")
        position = len(turns) - 1
        if position >= len(self.turns):
            return UserMove(None, ended_by="script")
        scripted = self.turns[position]
        reply = turns[-1].reply
        if scripted.when is None or scripted.when.matches(reply):
            return UserMove(scripted.user)
        if scripted.otherwise is not None:
            return UserMove(scripted.otherwise)
        return UserMove(None, ended_by="condition")

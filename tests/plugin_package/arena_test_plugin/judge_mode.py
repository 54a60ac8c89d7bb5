"""``shorter``: the judge asks its model once, then prefers the shorter answer."""

from __future__ import annotations

from langchain_core.messages import BaseMessage, HumanMessage

from arena.registry import judge_mode
from arena.vocabulary import Label
from judges.modes import Asker, JudgeMode, Reading
from judges.types import PairRequest


@judge_mode("shorter")
class ShorterMode(JudgeMode):
    """Prefer the shorter answer (ties on equal length)."""

    name = "shorter"
    summary = "the shorter answer wins (a plugin's judge mode)"

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [[HumanMessage(f"Which is shorter?\nA: {request.answer_a}\nB: {request.answer_b}")]]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        reply = await asker.ask(self.conversations(request)[0])
        a, b = len(request.answer_a), len(request.answer_b)
        label: Label = "A=B" if a == b else "A>B" if a < b else "B>A"
        return Reading(label=label, rationale="shorter wins", raw=str(reply.content))

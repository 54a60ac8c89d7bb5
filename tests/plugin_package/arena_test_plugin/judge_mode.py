"""``shorter``: the judge asks its model once, then prefers the shorter answer."""

from __future__ import annotations

from langchain_core.messages import BaseMessage, HumanMessage

from arena.extend import Asker, JudgeMode, Label, PairRequest, Reading, judge_mode


@judge_mode("shorter", "the shorter answer wins (a plugin's judge mode)")
class ShorterMode(JudgeMode):
    """Prefer the shorter answer (ties on equal length)."""

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [[HumanMessage(f"Which is shorter?\nA: {request.answer_a}\nB: {request.answer_b}")]]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        reply = await asker.ask(self.conversations(request)[0])
        a, b = len(request.answer_a), len(request.answer_b)
        label: Label = "A=B" if a == b else "A>B" if a < b else "B>A"
        return Reading(label=label, rationale="shorter wins", raw=str(reply.content))

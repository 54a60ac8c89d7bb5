"""``text``: the judge writes a short rationale and a ``[[A>B]]``-style verdict."""

from __future__ import annotations

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from judges import _prompts as prompts
from judges._parsing import parse_verdict
from judges._types import PairRequest
from judges.modes import _text_prompts as text_prompts
from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply
from judges.modes._registry import judge_mode


@judge_mode(
    "text", "a written [[A>B]]-style verdict; a winner only when both orders agree", order=10
)
class TextMode(JudgeMode):
    """A written verdict, asked once more if unreadable; the two orders must agree."""

    prompt_modules = (prompts, text_prompts)

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [
            [
                SystemMessage(text_prompts.system_text(request)),
                HumanMessage(prompts.pair_prompt(request, logprobs=False)),
            ]
        ]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        messages = self.conversations(request)[0]
        first = await asker.ask(messages)
        label = parse_verdict(str(first.content))
        reply = first
        if label is None:
            reply = await asker.ask([*messages, first, HumanMessage(text_prompts.ASK_AGAIN)])
            label = parse_verdict(str(reply.content))
        if label is None:
            raise UnreadableReply(
                "no [[verdict]] in the judge's reply, even when asked again", first, reply
            )
        raw = str(reply.content)
        return Reading(label=label, rationale=_rationale(raw), raw=raw)


def _rationale(text: str, limit: int = 600) -> str:
    cut = text.rfind("[[")
    body = (text[:cut] if cut > 0 else text).strip()
    return body[:limit]

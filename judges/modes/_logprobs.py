"""``logprobs``: P("A") against P("B") of the judge's first token; both orders averaged (or
combined in log-odds, ``JudgeSpec.combine``)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from judges import _prompts as prompts
from judges._orders import Outcome, probability_rule
from judges._parsing import first_token_probs, label_from_probability, reading_margin
from judges._types import PairRequest, Verdict
from judges.modes import _logprobs_prompts as logprobs_prompts
from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply
from judges.modes._registry import judge_mode


@judge_mode(
    "logprobs",
    "P(A) vs P(B) of one token, averaged over both orders (or in log-odds)",
    order=20,
)
class LogprobsMode(JudgeMode):
    """One token's log-probabilities: P(first-shown answer is better) = P(A) / (P(A) + P(B))."""

    needs_logprobs = True
    prompt_modules = (prompts, logprobs_prompts)

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [
            [
                SystemMessage(logprobs_prompts.system_logprobs(request)),
                HumanMessage(prompts.pair_prompt(request, logprobs=True)),
            ]
        ]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        return letter_reading(asker, await asker.ask(self.conversations(request)[0]))

    def combine(self, ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
        return probability_rule(ab, ba, ab.judge.combine, tie_margin)


def letter_reading(asker: Asker, reply: Any, details: dict[str, Any] | None = None) -> Reading:
    """The reading of a one-token "A" or "B" reply: P(first better) from the two letters'
    log-probabilities (UnreadableReply when the reply has neither)."""
    probs = first_token_probs(reply.response_metadata or {})
    total = probs.get("A", 0.0) + probs.get("B", 0.0)
    if total <= 0:
        raise UnreadableReply("the judge model returned no log-probabilities for A or B", reply)
    p_first = probs["A"] / total
    return Reading(
        label=label_from_probability(p_first, reading_margin(asker.spec)),
        p_first=p_first,
        raw=str(reply.content),
        rationale=f"P(A)={probs['A']:.3f}, P(B)={probs['B']:.3f}",
        details=details or {},
    )

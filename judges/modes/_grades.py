"""``grades``: each answer graded alone (P("YES") of one token), compared by log-odds.

No answer is ever shown next to the other, so there is no position to be biased by; one grade
per distinct answer is shared by every battle (and both orders) of a judge.
"""

from __future__ import annotations

import asyncio
import math

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from arena.vocabulary import GRADE_TOKENS, NO, YES
from judges import _prompts as prompts
from judges._orders import Outcome, probability_rule
from judges._parsing import first_token_probs, label_from_probability, reading_margin
from judges._types import PairRequest, Verdict
from judges.modes import _grades_prompts as grades_prompts
from judges.modes import _logprobs_prompts as logprobs_prompts
from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply
from judges.modes._registry import judge_mode


@judge_mode(
    "grades",
    "each answer graded alone (P(YES) of one token), compared by log-odds",
    order=30,
)
class GradesMode(JudgeMode):
    """Bradley-Terry on two grades: P(A better) = sigmoid(logit(p_a) - logit(p_b))."""

    needs_logprobs = True
    positional = False
    prompt_modules = (prompts, logprobs_prompts, grades_prompts)

    def __init__(self) -> None:
        self._grades: dict[str, asyncio.Future[float]] = {}

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [
            [
                SystemMessage(logprobs_prompts.system_logprobs(request)),
                HumanMessage(grades_prompts.grade_prompt(request, answer, trajectory, path, did)),
            ]
            for answer, trajectory, path, did in (
                (request.answer_a, request.trajectory_a, request.path_a, request.actions_a),
                (request.answer_b, request.trajectory_b, request.path_b, request.actions_b),
            )
        ]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        grade_a, grade_b = self.conversations(request)
        p_a = await self._p_yes(asker, grade_a)
        p_b = await self._p_yes(asker, grade_b)
        diff = math.log(p_a / (1 - p_a)) - math.log(p_b / (1 - p_b))
        p_first = 1.0 / (1.0 + math.exp(-diff))
        return Reading(
            label=label_from_probability(p_first, reading_margin(asker.spec)),
            p_first=p_first,
            calls=2,
            rationale=f"P(A good)={p_a:.3f}, P(B good)={p_b:.3f}",
        )

    async def grade(self, asker: Asker, request: PairRequest) -> float:
        """P(YES) of answer A graded alone (the grade every battle of this judge shares);
        :class:`UnreadableReply` when the reply has no log-probabilities for YES or NO."""
        return await self._p_yes(asker, self.conversations(request)[0])

    def combine(self, ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
        return probability_rule(ab, ba, ab.judge.combine, tie_margin)

    async def _p_yes(self, asker: Asker, messages: list[BaseMessage]) -> float:
        # One grade per distinct prompt, shared by concurrent battles: the same answer always
        # gets the same grade, so both orders of a battle agree by construction. A failed
        # grade is dropped, so a later battle asks again.
        prompt = "\0".join(str(m.content) for m in messages)  # the persona is in the system turn
        task = self._grades.get(prompt)
        if task is None:
            task = asyncio.ensure_future(self._grade(asker, messages))
            self._grades[prompt] = task
            task.add_done_callback(lambda t: self._drop_failed(prompt, t))
        return await asyncio.shield(task)

    def _drop_failed(self, prompt: str, task: asyncio.Future[float]) -> None:
        if task.cancelled() or task.exception() is not None:
            self._grades.pop(prompt, None)

    @staticmethod
    async def _grade(asker: Asker, messages: list[BaseMessage]) -> float:
        reply = await asker.ask(messages)
        probs = first_token_probs(reply.response_metadata or {}, GRADE_TOKENS)
        total = probs.get(YES, 0.0) + probs.get(NO, 0.0)
        if total <= 0:
            raise UnreadableReply(
                "the judge model returned no log-probabilities for YES or NO", reply
            )
        return min(max(probs[YES] / total, 1e-6), 1 - 1e-6)

"""``rules``: LLMBar-style rules, questions written first, both orders, a forced choice.

Both answers are shown side by side under rules that put following the instruction before
style and length (:mod:`judges.modes._rules_prompts`), with the checklist's questions about the
request (the case's own items, else the three the judge writes once per query, exactly as the
``checklist`` mode writes them, so they are shared through the response cache). One token's
P("A") against P("B") is read in each order, and the two orders combine in log-odds, which
cancels a constant preference for a position. The judge must choose: a tie only when the two
orders' evidence is exactly balanced (P = 0.5), whatever tie margin the run calibrates.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from judges import _prompts as prompts
from judges._orders import Outcome, probability_rule
from judges._types import PairRequest, Verdict
from judges.modes import _rules_prompts as rules_prompts
from judges.modes._base import Asker, JudgeMode, Reading
from judges.modes._logprobs import letter_reading
from judges.modes._registry import judge_mode
from judges.modes.checklist import _prompts as checklist_prompts
from judges.modes.checklist._mode import CONTENT_KINDS, ChecklistMode

if TYPE_CHECKING:
    from arena.golden import GoldenCase


#: The tie margin of a judge that must choose: a tie only at P = 0.5 exactly.
EXACT_TIE = 1e-12


@judge_mode(
    "rules",
    "both answers under instruction-following rules with questions written first "
    "(LLMBar's Rules + Metrics + Swap); orders in log-odds, a forced choice",
    order=50,
)
class RulesMode(JudgeMode):
    """P(first-shown better) = P(A) / (P(A) + P(B)) under the rules; orders in log-odds."""

    needs_logprobs = True

    def templates(self) -> dict[str, str]:
        """The shared fragments, the rules' own templates and the checklist's request to
        write questions (the one template of another mode it asks with)."""
        found = prompts.templates_of(prompts, rules_prompts)
        return {**found, "WRITE_CHECKLIST": checklist_prompts.WRITE_CHECKLIST}

    def __init__(self) -> None:
        self._questions: dict[str, asyncio.Future[tuple[str, ...]]] = {}

    def prepare(self, case: GoldenCase, *, with_trajectory: bool) -> dict[str, Any]:
        """``{"questions": [...]}``: the case's content items as questions (none for an
        open-ended case: the judge writes them)."""
        items = ChecklistMode().prepare(case, with_trajectory=False)["checklist"]
        return {"questions": [i["question"] for i in items if i.get("kind") in CONTENT_KINDS]}

    @staticmethod
    def case_questions(request: PairRequest) -> tuple[str, ...]:
        """The questions :meth:`prepare` put in the request."""
        return tuple(str(q) for q in request.mode_inputs.get("questions") or [])

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [self._messages(request, self.case_questions(request))]

    @staticmethod
    def _messages(request: PairRequest, questions: tuple[str, ...]) -> list[BaseMessage]:
        return [
            SystemMessage(rules_prompts.system_rules(prompts.persona(request))),
            HumanMessage(rules_prompts.rules_prompt(request, questions)),
        ]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        questions = await self._written(asker, request)
        reply = await asker.ask(self._messages(request, questions))
        return letter_reading(asker, reply, {"questions": list(questions)})

    def combine(self, ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
        """Log-odds of both orders; never a tie unless they balance exactly."""
        return probability_rule(ab, ba, "logit", EXACT_TIE)

    def details_lines(self, details: dict[str, Any], seat: str) -> list[str]:
        """The questions the verdict was asked with."""
        return [f"question: {q}" for q in details.get("questions") or []]

    async def _written(self, asker: Asker, request: PairRequest) -> tuple[str, ...]:
        known = self.case_questions(request)
        if known:
            return known
        task = self._questions.get(request.query)
        if task is None:
            task = asyncio.ensure_future(self._write(asker, request.query))
            self._questions[request.query] = task
            task.add_done_callback(lambda t: self._drop_failed(request.query, t))
        return await asyncio.shield(task)

    @staticmethod
    async def _write(asker: Asker, query: str) -> tuple[str, ...]:
        prompt = checklist_prompts.WRITE_CHECKLIST.format(query=query or "(empty message)")
        items = await ChecklistMode._write(asker, prompt)  # the checklist's own writer and prompt
        return tuple(item.question for item in items)

    def _drop_failed(self, query: str, task: asyncio.Future[tuple[str, ...]]) -> None:
        if task.cancelled() or task.exception() is not None:
            self._questions.pop(query, None)

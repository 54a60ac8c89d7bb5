"""``checklist``: each answer alone, one YES/NO question per checklist item, read from the
first token's log-probabilities; answers compare by the log-odds of their combined scores.

The items come from the golden case (:meth:`ChecklistMode.prepare`, by
:func:`judges.modes.checklist._items.case_checklist`); a case without expectations gets a
short checklist the judge writes from the query first (as TICK does), once per query; for a
conversation, from what the conversation is, asking about the agent's turns and its end
(:func:`judges._conversation_prompts.write_checklist`). Every
item prompt about one answer starts with the same prefix (query, reference, answer, tool
calls) and ends with the item question, so llama.cpp's prompt cache reads each answer once.
Grades are shared by every battle (and both orders) of a judge.

The verdict's ``details`` are ``{"checklist": [ItemGrade, ...]}`` (as JSON): every item of
both answers with its P(YES).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from arena.vocabulary import GRADE_TOKENS, NO, YES
from judges import _conversation_prompts as conversation_prompts
from judges import _prompts as prompts
from judges._orders import Outcome, probability_rule
from judges._parsing import first_token_probs, label_from_probability, reading_margin
from judges._types import PairRequest, Seat, Verdict
from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply
from judges.modes._registry import judge_mode
from judges.modes.checklist import _prompts as checklist_prompts
from judges.modes.checklist._items import (
    ChecklistItem,
    ItemGrade,
    case_checklist,
    checklist_lines,
    item_grades,
)
from judges.modes.checklist._score import DEFAULT_RULE, answer_score, p_first_better

if TYPE_CHECKING:
    from arena.golden import GoldenCase

#: Items of these kinds say what the answer should contain; without any, the judge writes some.
CONTENT_KINDS = frozenset({"fact", "forbidden", "behaviour"})
#: The most items a written checklist keeps, and the tokens its writing may use.
WRITTEN_ITEMS = 3
WRITE_TOKENS = 120


def written_items(text: str) -> tuple[ChecklistItem, ...]:
    """The questions of a checklist the judge wrote (one a line, list marks dropped)."""
    items = []
    for line in text.splitlines():
        question = line.strip().lstrip("-*0123456789.) ").strip()
        if question.endswith("?") and len(question) > 8:
            items.append(ChecklistItem(question=question, kind="written"))
    return tuple(items[:WRITTEN_ITEMS])


@judge_mode(
    "checklist",
    "each answer alone, one YES/NO logprob question per golden checklist item",
    order=40,
)
class ChecklistMode(JudgeMode):
    """Per-item P(YES) for each answer alone; P(A better) from the two answers' log-odds."""

    needs_logprobs = True
    positional = False
    rule: str = DEFAULT_RULE
    prompt_modules = (prompts, checklist_prompts)

    def __init__(self) -> None:
        self._shared: dict[str, asyncio.Future[object]] = {}

    def prepare(self, case: GoldenCase, *, with_trajectory: bool) -> dict[str, Any]:
        """``{"checklist": [...]}``: the case's YES/NO items (tool items only when the judge
        sees the tool calls)."""
        items = case_checklist(case, with_trajectory=with_trajectory)
        return {"checklist": [item.model_dump(mode="json") for item in items]}

    @staticmethod
    def case_items(request: PairRequest) -> tuple[ChecklistItem, ...]:
        """The items :meth:`prepare` put in the request."""
        raw = request.mode_inputs.get("checklist") or []
        return tuple(ChecklistItem.model_validate(item) for item in raw)

    def items(self, request: PairRequest) -> tuple[ChecklistItem, ...]:
        """The items known without asking (the written ones are added by :meth:`read`)."""
        generic = (
            conversation_prompts.GENERIC_ITEM
            if request.is_conversation
            else checklist_prompts.GENERIC_ITEM
        )
        return self.case_items(request) or (ChecklistItem(question=generic),)

    def details_lines(self, details: dict[str, Any], seat: Seat) -> list[str]:
        """``[x] question  P(YES)=0.93`` per item of the answer in ``seat``."""
        return checklist_lines(item_grades(details, seat))

    def details_rows(self, details: dict[str, Any], seat: Seat) -> list[dict[str, Any]]:
        """One row per item of the answer in ``seat``: met, question, wanted answer, P(YES)."""
        return [
            {
                "met": "yes" if g.p_met >= 0.5 else "no",
                "question": g.question,
                "wants": "YES" if g.want else "NO",
                "P(YES)": round(g.p_yes, 2),
            }
            for g in item_grades(details, seat)
        ]

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [
            self._messages(request, prefix, item)
            for prefix in self._prefixes(request)
            for item in self.items(request)
        ]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        items = await self._checklist(asker, request)
        by_seat: dict[str, list[ItemGrade]] = {}
        # Both orders of a battle grade the answers in the same order (and share the
        # grades), so the items of one answer follow each other in the prompt cache.
        for prefix, seat in sorted(zip(self._prefixes(request), ("A", "B"), strict=True)):
            by_seat[seat] = [
                await self._grade(asker, request, seat, prefix, item) for item in items
            ]
        grades = [*by_seat["A"], *by_seat["B"]]
        scores = [answer_score([g.p_met for g in by_seat[s]], self.rule) for s in ("A", "B")]
        p_first = p_first_better(scores[0], scores[1])
        return Reading(
            label=label_from_probability(p_first, reading_margin(asker.spec)),
            p_first=p_first,
            calls=2 * len(items),
            rationale=rationale(grades, scores),
            details={"checklist": [g.model_dump(mode="json") for g in grades]},
        )

    def combine(self, ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
        return probability_rule(ab, ba, ab.judge.combine, tie_margin)

    @staticmethod
    def _prefixes(request: PairRequest) -> tuple[str, str]:
        return (
            checklist_prompts.checklist_prefix(
                request, request.answer_a, request.trajectory_a, request.path_a, request.actions_a
            ),
            checklist_prompts.checklist_prefix(
                request, request.answer_b, request.trajectory_b, request.path_b, request.actions_b
            ),
        )

    @staticmethod
    def _messages(request: PairRequest, prefix: str, item: ChecklistItem) -> list[BaseMessage]:
        return [
            SystemMessage(checklist_prompts.system_checklist(request)),
            HumanMessage(checklist_prompts.checklist_prompt(prefix, item.question)),
        ]

    async def _checklist(self, asker: Asker, request: PairRequest) -> tuple[ChecklistItem, ...]:
        known = self.case_items(request)
        if any(item.kind in CONTENT_KINDS for item in known):
            return known
        if request.is_conversation:
            prompt = conversation_prompts.write_checklist(request)
        else:
            prompt = checklist_prompts.WRITE_CHECKLIST.format(
                query=request.query or "(empty message)"
            )
        written = await self._once(f"write\0{prompt}", lambda: self._write(asker, prompt))
        assert isinstance(written, tuple)
        return (*written, *known) or self.items(request)

    @staticmethod
    async def _write(asker: Asker, prompt: str) -> tuple[ChecklistItem, ...]:
        messages: list[BaseMessage] = [HumanMessage(prompt)]
        reply = await asker.ask(messages, max_tokens=WRITE_TOKENS)
        return written_items(str(reply.content))

    async def _grade(
        self, asker: Asker, request: PairRequest, seat: str, prefix: str, item: ChecklistItem
    ) -> ItemGrade:
        messages = self._messages(request, prefix, item)
        key = "\0".join(str(m.content) for m in messages)  # the persona is in the system turn
        p_yes = await self._once(key, lambda: _p_yes(asker, messages))
        assert isinstance(p_yes, float)
        return ItemGrade(
            answer="A" if seat == "A" else "B",
            question=item.question,
            want=item.want,
            kind=item.kind,
            p_yes=p_yes,
        )

    async def _once(self, key: str, make: Callable[[], Awaitable[object]]) -> object:
        # One answer per distinct prompt, shared by concurrent battles; a failure is dropped
        # so a later battle asks again.
        task = self._shared.get(key)
        if task is None:
            task = asyncio.ensure_future(make())
            self._shared[key] = task
            task.add_done_callback(lambda t: self._drop_failed(key, t))
        return await asyncio.shield(task)

    def _drop_failed(self, key: str, task: asyncio.Future[object]) -> None:
        if task.cancelled() or task.exception() is not None:
            self._shared.pop(key, None)


async def _p_yes(asker: Asker, messages: list[BaseMessage]) -> float:
    reply = await asker.ask(messages)
    probs = first_token_probs(reply.response_metadata or {}, GRADE_TOKENS)
    total = probs.get(YES, 0.0) + probs.get(NO, 0.0)
    if total <= 0:
        raise UnreadableReply("the judge model returned no log-probabilities for YES or NO", reply)
    return min(max(probs[YES] / total, 1e-6), 1 - 1e-6)


def rationale(grades: list[ItemGrade], scores: list[float]) -> str:
    """One line per answer: its score, then each item with P(YES) and a mark if met."""
    lines = []
    for seat, score in zip(("A", "B"), scores, strict=True):
        lines.append(f"{seat}: score {score:.2f}")
        for g in (g for g in grades if g.answer == seat):
            mark = "x" if g.p_met >= 0.5 else " "
            want = "" if g.want else " (wants NO)"
            lines.append(f"  [{mark}] {g.question}{want} P(YES)={g.p_yes:.2f}")
    return "\n".join(lines)

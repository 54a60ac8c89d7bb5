"""The checklist judge's YES/NO items and grades, and the items built from a golden case.

One item per expected-fact group, per forbidden content, for the reference answer's
conclusion, for the expected behaviour, and per expected tool (answered from the trajectory
summary, so only when the judge sees it). Forbidden tools get no item: asked "Did it call the
tool X?" about a tool missing from the summary, the 1.5B judge answered YES about half the
time, and ``benchmarks/judge_bench.py`` measured the checklist more accurate without them.

These are the checklist mode's own types: the core judge types carry them as JSON in
``PairRequest.mode_inputs["checklist"]`` and ``Verdict.details["checklist"]``.

A conversation case's checklist (:func:`conversation_checklist`) asks per expected turn
(:class:`arena.golden.TurnExpect`), in turn order: its description ("In turn 1, does the
agent do this: asks for the order number before refunding?"), one item per expected-fact
group and per forbidden text of that turn's reply, and, when the judge sees the tool calls,
one per expected and per forbidden tool of that turn ("In turn 3, does the agent call the
tool issue_refund?"; a forbidden one wants NO: each turn's Tools line in the transcript names
exactly that turn's calls, which makes such an item answerable there). Then the end state:
the one-message items reworded for the agent's last reply and the whole conversation.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from arena.golden import GoldenCase
from arena.golden._calls import item_text
from arena.golden._conversation import TurnExpect
from arena.golden._models import Behavior


class ChecklistItem(BaseModel):
    """One YES/NO question of a checklist judge; ``want`` is the answer a good answer gets."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question: str
    want: bool = True
    kind: str = "fact"


class ItemGrade(BaseModel):
    """One checklist item as the judge answered it for one answer (``A`` or ``B``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    answer: Literal["A", "B"]
    question: str
    want: bool = True
    kind: str = "fact"
    p_yes: float

    @property
    def p_met(self) -> float:
        """P(the item is met): P(YES) for an item that wants YES, else P(NO)."""
        return self.p_yes if self.want else 1.0 - self.p_yes


#: At most this many alternatives of one expected-fact group are spelled out in its question.
MAX_ALTERNATIVES = 3

BEHAVIOUR_QUESTIONS: dict[Behavior, str] = {
    Behavior.REFUSE: "Does the answer refuse to help with the request?",
    Behavior.ASK_FOR_CLARIFICATION: "Does the answer ask the user to clarify the request?",
    Behavior.GRACEFUL_RESPONSE: "Does the answer reply helpfully without inventing facts?",
    Behavior.ACKNOWLEDGE_UNCERTAINTY: (
        "Does the answer admit that it cannot find or does not know the information?"
    ),
    Behavior.ERROR_HANDLING: (
        "Does the answer say that a tool failed or gave no result, instead of making one up?"
    ),
}


def alternatives(group: str | list[str]) -> str:
    """An expected-fact group as its question spells it: ``"a" or "b"`` (the first few)."""
    options = [group] if isinstance(group, str) else list(group)
    shown = " or ".join(f'"{o}"' for o in options[:MAX_ALTERNATIVES])
    return shown


def case_checklist(case: GoldenCase, *, with_trajectory: bool) -> tuple[ChecklistItem, ...]:
    """The YES/NO items a good answer to ``case`` meets, in a fixed order (a conversation
    case's: :func:`conversation_checklist`)."""
    if case.is_conversation:
        return conversation_checklist(case, with_trajectory=with_trajectory)
    items: list[ChecklistItem] = []
    if case.expected_behavior is not None:
        items.append(
            ChecklistItem(question=BEHAVIOUR_QUESTIONS[case.expected_behavior], kind="behaviour")
        )
    for group in case.expected_output_contains:
        items.append(
            ChecklistItem(
                question=f"Does the answer state {alternatives(item_text(group))} or an "
                "equivalent?",
                kind="fact",
            )
        )
    for text in case.expected_output_not_contains:
        items.append(
            ChecklistItem(
                question=f'Does the answer contain "{text}"?', want=False, kind="forbidden"
            )
        )
    if case.reference_answer:
        items.append(
            ChecklistItem(
                question="Does the answer reach the same conclusion as the reference answer?",
                kind="reference",
            )
        )
    if with_trajectory:
        for tool in dict.fromkeys(case.expected_tools):
            items.append(ChecklistItem(question=f"Did it call the tool {tool}?", kind="tool"))
    return tuple(items)


def item_grades(details: dict[str, Any], seat: str | None = None) -> list[ItemGrade]:
    """The grades in a checklist verdict's ``details`` (of one seat's answer if given).

    Args:
        details: a checklist verdict's ``details``.
        seat: the answer (seat) whose grades to keep; None keeps every grade.

    Returns:
        The item grades, in the verdict's order.
    """
    grades = [ItemGrade.model_validate(g) for g in details.get("checklist") or []]
    return [g for g in grades if seat is None or g.answer == seat]


def checklist_lines(grades: list[ItemGrade]) -> list[str]:
    """``[x] question  P(YES)=0.93`` per item; ``x`` when the item is met."""
    return [
        f"[{'x' if g.p_met >= 0.5 else ' '}] {g.question}"
        f"{'' if g.want else ' (wants NO)'}  P(YES)={g.p_yes:.2f}"
        for g in grades
    ]


def turn_items(expect: TurnExpect, *, with_trajectory: bool) -> list[ChecklistItem]:
    """The YES/NO items of one expected turn."""
    at = f"In turn {expect.turn},"
    items: list[ChecklistItem] = []
    if expect.description:
        items.append(
            ChecklistItem(
                question=f"{at} does the agent do this: {expect.description.rstrip('.?')}?",
                kind="behaviour",
            )
        )
    for group in expect.contains:
        items.append(
            ChecklistItem(
                question=f"{at} does the agent's reply state {alternatives(group)} or an "
                "equivalent?",
                kind="fact",
            )
        )
    for text in expect.not_contains:
        items.append(
            ChecklistItem(
                question=f'{at} does the agent\'s reply contain "{text}"?',
                want=False,
                kind="forbidden",
            )
        )
    if with_trajectory:
        for tool in dict.fromkeys(expect.tools):
            items.append(
                ChecklistItem(question=f"{at} does the agent call the tool {tool}?", kind="tool")
            )
        for tool in dict.fromkeys(expect.forbidden_tools):
            items.append(
                ChecklistItem(
                    question=f"{at} does the agent call the tool {tool}?",
                    want=False,
                    kind="forbidden_tool",
                )
            )
    return items


def end_state_items(case: GoldenCase, *, with_trajectory: bool) -> list[ChecklistItem]:
    """The case's own expectations, about the end of the conversation."""
    items: list[ChecklistItem] = []
    if case.expected_behavior is not None:
        question = BEHAVIOUR_QUESTIONS[case.expected_behavior]
        items.append(
            ChecklistItem(
                question=question.replace("Does the answer", "In the conversation, does the agent"),
                kind="behaviour",
            )
        )
    for group in case.expected_output_contains:
        items.append(
            ChecklistItem(
                question="In its last reply, does the agent state "
                f"{alternatives(item_text(group))} or an equivalent?",
                kind="fact",
            )
        )
    for text in case.expected_output_not_contains:
        items.append(
            ChecklistItem(
                question=f'In its last reply, does the agent say "{text}"?',
                want=False,
                kind="forbidden",
            )
        )
    if case.reference_answer:
        items.append(
            ChecklistItem(
                question="Does the conversation end with the same conclusion as the reference "
                "answer?",
                kind="reference",
            )
        )
    if with_trajectory:
        for tool in dict.fromkeys(case.expected_tools):
            items.append(
                ChecklistItem(
                    question=f"In any turn, does the agent call the tool {tool}?", kind="tool"
                )
            )
    return items


def conversation_checklist(case: GoldenCase, *, with_trajectory: bool) -> tuple[ChecklistItem, ...]:
    """Every item of a conversation case: per expected turn (in turn order), then the end
    state."""
    conversation = case.conversation
    expects = sorted(conversation.expect, key=lambda e: e.turn) if conversation else []
    items = [i for e in expects for i in turn_items(e, with_trajectory=with_trajectory)]
    return (*items, *end_state_items(case, with_trajectory=with_trajectory))

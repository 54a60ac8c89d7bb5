"""The checklist of a conversation case: items per expected turn, then the end state.

Per expected turn (:class:`arena.golden.TurnExpect`), in turn order: its description ("In
turn 1, does the agent do this: asks for the order number before refunding?"), one item per
expected-fact group and per forbidden text of that turn's reply, and, when the judge sees
the tool calls, one per expected tool and per forbidden tool of that turn ("In turn 3, does
the agent call the tool issue_refund?"; a forbidden one wants NO). Each turn's Tools line
in the transcript names exactly the calls of that turn, which is what makes a forbidden-tool
item answerable here (the one-message checklist leaves them out). Then the end state, the
one-message items reworded: the facts of the agent's last reply, the reference answer's
conclusion, the expected behaviour, and the tools called over the whole conversation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judges.modes._checklist_items import BEHAVIOUR_QUESTIONS, ChecklistItem, alternatives

if TYPE_CHECKING:
    from arena.golden import GoldenCase
    from arena.golden._conversation import TurnExpect


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
                question=f"In its last reply, does the agent state {alternatives(group)} or an "
                "equivalent?",
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

"""The ``rules`` mode's prompt: instruction-following rules, questions to check, both answers.

Written after LLMBar's "Rules + Metrics + Swap" strategy for weak judges (Zeng et al., ICLR
2024, github.com/princeton-nlp/LLMBar): the rules put following the instruction before style
and length, the questions ("metrics") are written from the instruction before the answers
are read, and both orders are asked. The wording here is this project's own.

Every upper-case constant here is one of the ``rules`` mode's templates and enters its judge
identity only (:meth:`judges.modes._base.JudgeMode.templates`), with the shared fragments and
the checklist's :data:`~judges.modes.checklist._prompts.WRITE_CHECKLIST` (its questions are
written as the checklist writes them).
"""

from __future__ import annotations

from collections.abc import Sequence

from judges import _prompts as prompts
from judges._fence import boundary_id, fenced, neutral
from judges._types import PairRequest

SYSTEM_RULES = (
    "You are a careful judge of {persona}. You decide which of two answers better carries out "
    "the user's instruction. {data_rule}"
)

RULES = (
    "How to judge:\n"
    "1. First ask whether each answer does exactly what the instruction asks: the task, every "
    "constraint, the format and the scope. An answer that does more or less than asked, or a "
    "different task, does not follow the instruction, however well written.\n"
    "2. Only when both follow it equally well, prefer the one that is correct, honest and "
    "helpful.\n"
    "3. Length, confidence and polish are not quality. Which answer is shown first says nothing."
)

QUESTIONS_HEAD = "Questions to check, most important first:"

RULES_ASK = "Which answer carries out the instruction better, A or B? Reply with one letter."


def system_rules(persona: str) -> str:
    """The ``rules`` judge's system prompt."""
    return SYSTEM_RULES.replace("{persona}", persona).replace("{data_rule}", prompts.DATA_RULE)


def rules_prompt(request: PairRequest, questions: Sequence[str]) -> str:
    """The user turn: the rules, the instruction, the questions, answers A and B (each between
    its own boundary tags), then the one-letter question."""
    tag_id = boundary_id(
        "rules", request.query, request.reference, request.answer_a, request.answer_b
    )
    parts = [RULES, f"Instruction: {neutral(request.query) or '(empty message)'}"]
    if request.reference:
        parts.append(f"Reference answer: {prompts.clip(neutral(request.reference))}")
    if questions:
        parts.append("\n".join([QUESTIONS_HEAD, *(f"- {q}" for q in questions)]))
    for name, answer in (("A", request.answer_a), ("B", request.answer_b)):
        shown = prompts.clip(neutral(answer)) or "(empty answer)"
        parts.append(f"Answer {name}:\n{fenced('answer', shown, f'{tag_id}-{name}')}")
    parts.append(RULES_ASK)
    return "\n\n".join(parts)

"""The ``text`` mode's templates: its system prompt, its default rubric and the re-ask.

Every upper-case constant here is one of its templates and enters the ``text`` judge's
identity only (:meth:`judges.modes._base.JudgeMode.templates`); its user turn is the shared
pair prompt (:func:`judges._prompts.pair_prompt`).
"""

from __future__ import annotations

from judges import _conversation_prompts as conversation
from judges import _prompts as prompts
from judges._types import PairRequest

#: What makes an answer better when no rubric is given (the text judge's criteria).
DEFAULT_RUBRIC = (
    "Prefer the answer that is correct, follows the expectations, refuses harmful requests "
    "and admits missing capabilities; ignore length and style."
)

SYSTEM_TEXT = (
    "You are an impartial judge of {persona}. Compare two answers to the same user request. "
    "{rubric} Do not let the order of the answers influence you. {data_rule} First explain "
    "briefly (at most three sentences), then give your final verdict on the last line as "
    "exactly one of: [[A>>B]] (A is much better), [[A>B]], [[A=B]], [[B>A]], [[B>>A]]."
)

ASK_AGAIN = (
    "Your verdict could not be read. Reply with only the final verdict, exactly one "
    "of: [[A>>B]], [[A>B]], [[A=B]], [[B>A]], [[B>>A]]."
)


def system_text(request: PairRequest) -> str:
    """The text judge's system prompt, with the request's persona and rubric."""
    if request.is_conversation:
        return conversation.system_text(request, prompts.persona(request))
    return prompts.system_prompt(SYSTEM_TEXT, request, request.rubric or DEFAULT_RUBRIC)

"""The system prompt of the modes that read one token (``logprobs``, ``grades``).

Every upper-case constant here is a template of both modes and enters their judge
identities only (:meth:`judges.modes._base.JudgeMode.templates`).
"""

from __future__ import annotations

from judges import _conversation_prompts as conversation
from judges import _prompts as prompts
from judges._types import PairRequest

SYSTEM_LOGPROBS = "You are a strict grader of {persona}. {rubric}{data_rule}"


def system_logprobs(request: PairRequest) -> str:
    """The system prompt of the modes that read one token, with the request's persona and
    rubric."""
    if request.is_conversation:
        return conversation.system_logprobs(request, prompts.persona(request))
    return prompts.system_prompt(SYSTEM_LOGPROBS, request, prompts.rubric_line(request))

"""The behaviour grader's templates (:mod:`judges._behavior`): one reply against one criterion.

The grader is no judge mode: its templates enter no judge's identity (only that of a mode
that declares none of its own, :func:`judges.modes._legacy.legacy_surface`); its replies are
cached by the prompts as rendered.
"""

from __future__ import annotations

from judges import _prompts as prompts
from judges._fence import boundary_id, fenced, neutral

SYSTEM_BEHAVIOUR = "You grade an AI assistant's reply against one criterion. " + prompts.DATA_RULE

BEHAVIOUR_QUESTION = "Does the reply meet the criterion? Answer YES or NO."


def behaviour_prompt(query: str, output: str, criterion: str) -> str:
    """The behaviour grader's user turn: the request, the reply between boundary tags, the
    criterion (a rubric of :mod:`judges._behavior` or the case's own)."""
    tag_id = boundary_id("behaviour", query, output, criterion)
    return (
        f"User request: {neutral(query) or '(empty message)'}\n\nAssistant reply:\n"
        f"{fenced('answer', prompts.clip(neutral(output)) or '(empty)', tag_id)}\n\n"
        f"Criterion: {criterion}\n{BEHAVIOUR_QUESTION}"
    )

"""The ``grades`` mode's templates: one answer graded alone, then YES or NO.

Every upper-case constant here is one of its templates and enters the ``grades`` judge's
identity only (:meth:`judges.modes._base.JudgeMode.templates`), with the one-token system
prompt (:mod:`judges.modes._logprobs_prompts`) and the shared fragments.
"""

from __future__ import annotations

from judges import _action_prompts as actions
from judges import _conversation_prompts as conversation
from judges import _graph_prompts as graph
from judges import _prompts as prompts
from judges._fence import boundary_id
from judges._types import PairRequest

GRADE_QUESTION = "Is this a good answer to the question? Reply YES or NO."


def grade_prompt(
    request: PairRequest,
    answer: str,
    trajectory: str | None = None,
    path: str | None = None,
    did: str | None = None,
) -> str:
    """Single-answer grading (grades mode): one answer (and its tool calls, its path through
    the graph when the request shows paths, and what its agent did when it shows actions),
    then YES or NO."""
    path = path if graph.shows_paths(request) else None
    did = did if actions.shows_actions(request) else None
    if request.is_conversation:
        return conversation.grade_prompt(request, answer, path, did)
    shown = tuple(part for part in (path, did) if part is not None)
    tag_id = boundary_id(
        "grade", request.query, request.reference, request.expectations, answer, trajectory, *shown
    )
    parts = prompts.context(request, expectations=True)
    parts.append(f"Answer:\n{prompts.fenced_answer(answer, tag_id)}")
    if trajectory:
        parts.append(f"Tools used: {prompts.fenced_tools(trajectory, tag_id)}")
    if path is not None:
        parts.append(graph.path_block(path, tag_id))
    if did is not None:
        parts.append(actions.actions_block(did, tag_id))
    parts.append(GRADE_QUESTION if path is None else graph.GRADE_QUESTION)
    return "\n\n".join(parts)

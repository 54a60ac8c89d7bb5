"""Build what the judge sees from a golden case and two stored results."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from arena.battles._conversation_requests import (
    conversation_expectations,
    conversation_query,
    exchanges,
    shown_conversation,
)
from arena.golden import GoldenCase
from arena.golden._calls import item_text
from arena.golden._models import JudgeSettings
from arena.records.end_state import change_lines
from arena.records.results import RunResult
from arena.records.transcript import call_text, replies
from judges._action_prompts import actions_text
from judges._graph_prompts import path_text
from judges._prompts import NO_TOOLS
from judges._types import PairRequest

if TYPE_CHECKING:
    from judges.modes._base import JudgeMode


def expectations_text(case: GoldenCase) -> str | None:
    """A compact statement of the case's expectations for the judge."""
    parts: list[str] = []
    if case.expected_behavior:
        parts.append(f"expected behaviour: {case.expected_behavior.value}")
    if case.expected_output_contains:
        texts = [item_text(i) for i in case.expected_output_contains]
        items = [" or ".join(t) if isinstance(t, list) else t for t in texts]
        parts.append("should mention: " + "; ".join(f"({i})" for i in items))
    if case.expected_output_not_contains:
        parts.append("must not contain: " + "; ".join(case.expected_output_not_contains))
    if case.expected_tools:
        parts.append("expected tools: " + ", ".join(case.expected_tools))
    return ". ".join(parts) or None


def trajectory_text(result: RunResult) -> str:
    """Tool calls in one line, e.g. ``search_web(query=Japan GDP) -> calculate(...)``."""
    return " -> ".join(call_text(step) for step in result.steps) or NO_TOOLS


def has_trajectory(result: RunResult) -> bool:
    """Whether the result recorded how it was made: tool calls, or model calls without tools
    (an answer read from a file made elsewhere has neither)."""
    return bool(result.steps) or result.model_calls > 0


def graph_paths(first: RunResult, second: RunResult) -> dict[str, str]:
    """``path_a`` and ``path_b`` of a request that shows both answers' paths through their
    graphs (:func:`judges._graph_prompts.path_text`); empty when either result has none (a
    plain Runnable): the pair is then judged as without paths."""
    if first.nodes is None or second.nodes is None:
        return {}
    return {"path_a": path_text(first.nodes), "path_b": path_text(second.nodes)}


def _calls(result: RunResult) -> list[str]:
    return [call_text(step) for step in result.steps]


def _did_something(result: RunResult) -> bool:
    return bool(result.steps) or (result.end_state is not None and not result.end_state.empty)


def action_fields(first: RunResult, second: RunResult) -> dict[str, str]:
    """``actions_a`` and ``actions_b`` of a request that shows what each side's agent did
    (:func:`judges._action_prompts.actions_text`): when the two say the same but did
    different things, or either changed records of its agent's state. Empty otherwise (a
    pair whose sides did nothing is judged as it always was)."""
    changed = any(r.end_state is not None and not r.end_state.empty for r in (first, second))
    differently = same_answer(first, second) and not same_actions(first, second)
    if not (changed or differently) or not (_did_something(first) or _did_something(second)):
        return {}
    return {
        f"actions_{seat}": actions_text(
            _calls(result), None if result.end_state is None else change_lines(result.end_state)
        )
        for seat, result in (("a", first), ("b", second))
    }


def untrusted_query(run_config: dict[str, Any]) -> bool:
    """Whether a run's queries are someone else's text rather than the team's: a shadow run
    (production traces) or answer files read with their questions (``arena judge
    --outputs``)."""
    return "shadow" in run_config or "outputs" in run_config


def pair_request(
    case: GoldenCase,
    first: RunResult,
    second: RunResult,
    *,
    mode: JudgeMode,
    with_trajectory: bool,
    settings: JudgeSettings | None = None,
    with_graph_path: bool = False,
    query_untrusted: bool = False,
) -> PairRequest:
    """The request with ``first`` shown as answer A; the trajectories (built from the stored
    tool calls only, never from the answer text) are shown when asked and both results have
    one, and so are the paths through the graph (``with_graph_path``, :func:`graph_paths`)
    and what each side's agent did when it matters (:func:`action_fields`).
    ``mode`` (the judge's) prepares its own inputs from the case
    (:meth:`~judges.modes._base.JudgeMode.prepare`); ``settings`` gives the judge's persona
    and rubric (``JudgeSpec.settings``). ``query_untrusted``: the query is not the team's
    text (:func:`untrusted_query`), so repeating it exempts nothing from the injection
    detector.

    A conversation case (:func:`conversation_request`) shows each side's transcript
    instead."""
    with_trajectory = with_trajectory and has_trajectory(first) and has_trajectory(second)
    paths: dict[str, object] = dict(graph_paths(first, second)) if with_graph_path else {}
    paths.update(action_fields(first, second))
    if query_untrusted:
        paths["query_untrusted"] = True
    if case.is_conversation:
        request = conversation_request(
            case, first, second, mode=mode, with_trajectory=with_trajectory, settings=settings
        )
        return request.model_copy(update=paths) if paths else request
    return PairRequest(
        case_id=case.id,
        query=case.input,
        reference=case.reference_answer,
        expectations=expectations_text(case),
        answer_a=first.output,
        answer_b=second.output,
        trajectory_a=trajectory_text(first) if with_trajectory else None,
        trajectory_b=trajectory_text(second) if with_trajectory else None,
        mode_inputs=mode.prepare(case, with_trajectory=with_trajectory),
        persona=settings.persona if settings else None,
        rubric=settings.rubric if settings else None,
        **paths,
    )


def conversation_request(
    case: GoldenCase,
    first: RunResult,
    second: RunResult,
    *,
    mode: JudgeMode,
    with_trajectory: bool,
    settings: JudgeSettings | None = None,
) -> PairRequest:
    """The request of a conversation case: each side's transcript as its answer (with each
    turn's tool calls when ``with_trajectory``), the query saying what the conversation is,
    the expectations per turn and for the end state, and each side's turns for the checks
    that read the agent's replies alone."""
    return PairRequest(
        case_id=case.id,
        query=conversation_query(case),
        reference=case.reference_answer,
        expectations=conversation_expectations(case, expectations_text(case)),
        answer_a=shown_conversation(first, tools=with_trajectory),
        answer_b=shown_conversation(second, tools=with_trajectory),
        mode_inputs=mode.prepare(case, with_trajectory=with_trajectory),
        persona=settings.persona if settings else None,
        rubric=settings.rubric if settings else None,
        turns_a=exchanges(first, case.input, tools=with_trajectory),
        turns_b=exchanges(second, case.input, tools=with_trajectory),
    )


def _said(result: RunResult) -> str:
    if result.dialogue is None:
        return result.output
    return "\0".join(f"{user}\0{reply}" for user, reply in replies(result))


def _actions(result: RunResult) -> tuple[object, ...]:
    """What a result did besides answering: its tool calls (tool and arguments, in order),
    what it changed in its agent's state, and its path through the graph."""
    calls = [
        (step.tool, json.dumps(step.args, sort_keys=True, default=str)) for step in result.steps
    ]
    state = None
    if result.end_state is not None:
        state = result.end_state.model_dump(mode="json", exclude={"named"})
    path = None if result.nodes is None else [(s.turn, s.name) for s in result.nodes.steps]
    return calls, state, path


def same_actions(a: RunResult, b: RunResult) -> bool:
    """Whether two results did the same: the same tool calls with the same arguments, the
    same state changes and the same path through the graph (:func:`_actions`)."""
    return _actions(a) == _actions(b)


def identical(a: RunResult, b: RunResult) -> bool:
    """The same answer (:func:`same_answer`) made the same way (:func:`same_actions`): a tie
    without asking the judge."""
    return same_answer(a, b) and same_actions(a, b)


def same_answer(a: RunResult, b: RunResult) -> bool:
    """Identical outputs (whitespace aside) are a tie without asking the judge; for two
    conversations, identical whole transcripts (every user turn and reply)."""
    if a.dialogue is not None or b.dialogue is not None:
        return " ".join(_said(a).split()) == " ".join(_said(b).split())
    return " ".join(a.output.split()) == " ".join(b.output.split())

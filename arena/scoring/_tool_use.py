"""The trajectory component of a case score: a weighted mix of trajectory metrics.

================ ====== ==========================================================
sub-component    weight applies when / what
================ ====== ==========================================================
``selection``    0.35   always: multiset tool F1 against ``expected_tools`` (or
                        ``expected_order`` when only that is given); with
                        ``acceptable_tools``, the best F1 over the alternatives
                        (``expected_tools`` counts as one more alternative).
                        ``expected_tools == []`` (the default) means "no tools".
``order``        0.15   ``expected_order`` set: LCS / len(expected_order)
``args``         0.15   ``expected_args`` set: approximate argument match
``calls``        0.15   ``expected_calls`` set: the share of expected calls met, one
                        to one in the case's ``calls_match`` (:mod:`arena.scoring._calls`);
                        its weight (:data:`CALLS_WEIGHT`) is added to these, renormalised
``efficiency``   0.15   always: 1 within ``max_steps``, minus 0.2 per extra step
``forbidden``    0.10   ``forbidden_tools`` set: 1 minus 0.5 per forbidden call
``min_calls``    0.10   ``min_tool_calls > 0``: calls / min_tool_calls, capped at 1
================ ====== ==========================================================

Weights of sub-components that do not apply are redistributed proportionally over the
ones that do. A call that failed is scored as a call of another name, so it costs precision
and an extra step but never matches an expected tool, its arguments or the expected order,
and does not count towards ``min_tool_calls``: a call whose tool raised, timed out or
returned an error is ``NAME (failed)`` (unless the case lists the tool in
``expected_tool_errors``), a call to a tool the variant does not have
(``TrajectoryStep.unavailable``: ``tools:`` left it out, or the agent made it up) is
``NAME (unavailable)`` and is listed under ``hallucinated_tools``. A forbidden tool stays
forbidden even when its call failed or it is unavailable.

Every expectation the calls that count leave unmet (:mod:`arena.scoring._required`) is listed
under ``details['missed']`` and fails the check (``passed`` False): the trajectory check
makes each one a hard fail of the case, whatever its score.
The normalised edit similarity, the tool-set IoU and the four agentevals match modes
(arguments compared with ``approx``) are reported in the details but not weighted.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from arena.golden._models import GoldenCase
from arena.records.results import RunResult, TrajectoryStep
from arena.scoring._args import score_expected_args
from arena.scoring._calls import match_calls
from arena.scoring._match import MATCH_MODES, ToolCall, calls_from_steps, match_trajectory
from arena.scoring._required import counts_as_call, missed_actions
from arena.scoring._trajectory import (
    best_alternative,
    edit_similarity,
    efficiency,
    forbidden_score,
    forbidden_violations,
    hallucinated_tools,
    lcs_ratio,
    min_calls_score,
    tool_iou,
)
from arena.scoring._types import Check

TRAJECTORY_WEIGHTS: dict[str, float] = {
    "selection": 0.35,
    "order": 0.15,
    "args": 0.15,
    "efficiency": 0.15,
    "forbidden": 0.10,
    "min_calls": 0.10,
}
"""Weights of the trajectory sub-components (see the module docstring)."""
CALLS_WEIGHT = 0.15
"""The weight of the ``calls`` sub-component, beside :data:`TRAJECTORY_WEIGHTS`."""


UNAVAILABLE_MARK = " (unavailable)"
"""Appended to the name of a call to a tool the variant lacks (see the module docstring)."""
FAILED_MARK = " (failed)"
"""Appended to the name of a call that raised, timed out or returned an error."""


def scored_steps(
    steps: list[TrajectoryStep], expected_errors: Collection[str] = ()
) -> list[TrajectoryStep]:
    """The steps as scored: a call that does not count (:func:`counts_as_call`) renamed
    ``NAME (unavailable)`` or ``NAME (failed)``."""
    return [
        step
        if counts_as_call(step, expected_errors)
        else step.model_copy(
            update={"tool": step.tool + (UNAVAILABLE_MARK if step.unavailable else FAILED_MARK)}
        )
        for step in steps
    ]


def weighted_mean(
    scores: dict[str, float], weights: dict[str, float]
) -> tuple[float, dict[str, float]]:
    """Weighted mean of the present scores, weights renormalised over them.

    Returns the mean and the weights actually used. No applicable score gives 0.
    """
    present = {name: weights[name] for name in scores if weights.get(name, 0.0) > 0}
    total = sum(present.values())
    if total <= 0:
        return 0.0, {}
    used = {name: weight / total for name, weight in present.items()}
    return sum(scores[name] * weight for name, weight in used.items()), used


def _alternatives(case: GoldenCase) -> list[list[str]]:
    if case.acceptable_tools:
        alternatives = [list(alt) for alt in case.acceptable_tools]
        expected = case.expected_tools or case.expected_order
        if expected and sorted(expected) not in [sorted(a) for a in alternatives]:
            alternatives.append(list(expected))
        return alternatives
    return [list(case.expected_tools or case.expected_order)]


def _selection_alternatives(case: GoldenCase) -> list[list[str]]:
    """The alternatives selection is scored against: a case that states only
    ``expected_calls`` expects their tools."""
    if case.expected_calls and not (
        case.expected_tools or case.expected_order or case.acceptable_tools
    ):
        return [[call.tool for call in case.expected_calls]]
    return _alternatives(case)


def _selection(tools: list[str], case: GoldenCase) -> tuple[float, dict[str, Any], list[str]]:
    alternatives = _selection_alternatives(case)
    index, overlap = best_alternative(tools, alternatives)
    reference = alternatives[index]
    details = {
        **overlap.model_dump(),
        "iou": tool_iou(tools, reference),
        "reference": reference,
        "alternative": index if case.acceptable_tools else None,
    }
    return overlap.f1, details, reference


def _reference_calls(case: GoldenCase, reference: list[str]) -> list[ToolCall]:
    names = case.expected_order or case.expected_tools or reference
    return [ToolCall(name=name, args=dict(case.expected_args.get(name, {}))) for name in names]


def _match_details(
    steps: list[TrajectoryStep], case: GoldenCase, reference: list[str]
) -> dict[str, Any]:
    agent_calls = calls_from_steps(steps)
    ref_calls = _reference_calls(case, reference)
    out: dict[str, Any] = {}
    for mode in MATCH_MODES:
        verdict = match_trajectory(agent_calls, ref_calls, mode=mode, args_mode="approx")
        out[mode] = {"matched": verdict.matched, "score": verdict.score}
    return out


def score_trajectory(
    result: RunResult, case: GoldenCase, available_tools: set[str] | None = None
) -> Check:
    """The trajectory component; ``details['components']`` holds each sub-score.

    ``passed`` is False when a forbidden tool was called or a required action was missed
    (``details['missed']``, in words). Tools missing from ``available_tools`` are listed
    under ``details['hallucinated_tools']``.
    """
    steps = scored_steps(result.steps, case.expected_tool_errors)
    tools = [step.tool for step in steps]
    unavailable = [step.tool for step in result.steps if step.unavailable]
    components: dict[str, float] = {}
    details: dict[str, Any] = {
        "tools": tools,
        "errored_calls": [step.index for step in result.steps if step.error],
        "hallucinated_tools": sorted(
            {*hallucinated_tools(result.tool_names, available_tools), *unavailable}
        ),
    }
    components["selection"], details["selection"], reference = _selection(tools, case)
    if case.expected_order:
        components["order"] = lcs_ratio(tools, case.expected_order)
        details["order"] = {
            "expected": list(case.expected_order),
            "lcs": components["order"],
            "edit_similarity": edit_similarity(tools, case.expected_order),
        }
    if case.expected_args:
        args_check = score_expected_args(steps, case.expected_args)
        components["args"] = args_check.score
        details["args"] = args_check.details
    if case.expected_calls:
        good = [s for s in result.steps if counts_as_call(s, case.expected_tool_errors)]
        verdict = match_calls(good, case)
        components["calls"] = verdict.score(len(case.expected_calls))
        details["calls"] = {
            "match": case.calls_match or "in_order",
            "taken": {str(i): good[j].index for i, j in verdict.taken.items()},
        }
    components["efficiency"] = efficiency(len(result.steps), case.max_steps)
    details["efficiency"] = {"steps": len(result.steps), "max_steps": case.max_steps}
    violations = forbidden_violations(result.tool_names, case.forbidden_tools)
    if case.forbidden_tools:
        components["forbidden"] = forbidden_score(result.tool_names, case.forbidden_tools)
        details["forbidden"] = {"forbidden": list(case.forbidden_tools), "violations": violations}
    if case.min_tool_calls > 0:
        calls = sum(counts_as_call(step, case.expected_tool_errors) for step in result.steps)
        components["min_calls"] = min_calls_score(calls, case.min_tool_calls)
        details["min_calls"] = {"calls": calls, "min_tool_calls": case.min_tool_calls}
    details["match"] = _match_details(steps, case, reference)
    details["missed"] = missed_actions(
        result.steps, case, _alternatives(case), result.side_effecting
    )
    score, weights = weighted_mean(components, {**TRAJECTORY_WEIGHTS, "calls": CALLS_WEIGHT})
    details["components"] = components
    details["weights"] = weights
    passed = not violations and not details["missed"]
    return Check(score=min(1.0, max(0.0, score)), passed=passed, details=details)

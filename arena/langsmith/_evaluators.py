"""Arena's golden scorers as LangSmith evaluators.

Each evaluator takes LangSmith's ``inputs``, ``outputs`` and ``reference_outputs`` and returns
``{"key", "score", "comment"}``, so ``langsmith.evaluate(target, data=...,
evaluators=arena_evaluators)`` scores any target the way ``arena score`` does:

============================ =================================================================
key                          score
============================ =================================================================
``golden_score``             the combined score (0-1), comment: pass/fail and the reasons
``golden_pass``              1 when the result passes (0.70 and no hard fail), else 0
``golden_output``            the output component (contains, regex, exact, not-contains)
``golden_trajectory``        the trajectory component; the comment has the match modes
``golden_behavior``          the behaviour component (keyword rules, or ``grader``)
``golden_functional``        the files component (``outputs["files"]``: path -> text)
``trajectory_<mode>``        :func:`trajectory_match`: strict / unordered / subset / superset
============================ =================================================================

A component that does not apply to the case scores ``None`` with a comment saying so.
``reference_outputs`` are the case's expectations (as :func:`case_to_example` writes them);
``outputs`` are what :class:`arena.langsmith.AgentTarget` returns (``output``,
``tool_calls``, ``files``, ``error``) or any agent's own: a final ``output``/``answer`` and
tool calls read from ``tool_calls`` or a LangChain/OpenAI ``messages`` list.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from arena.langsmith._examples import case_from_reference
from arena.records.graph_path import NodePath
from arena.records.results import RunResult, TrajectoryStep
from arena.scoring import BehaviorGrader, CaseScore, score_result, score_results
from arena.scoring._match import ArgsMode, MatchMode, ToolCall, calls_from_steps, match_trajectory

Evaluator = Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], dict[str, Any]]
_ANSWER_KEYS = ("output", "answer", "final_answer", "response", "result")


def outputs_from_result(result: RunResult) -> dict[str, Any]:
    """A stored or fresh arena result as the ``outputs`` of a LangSmith run."""
    return {
        "output": result.output,
        "tool_calls": [
            {
                "name": s.tool,
                "args": s.args,
                "agent": s.agent,
                "observation": s.observation,
                "error": s.error,
            }
            for s in result.steps
        ],
        "files": dict(result.files),
        "error": result.error,
        "latency_s": result.latency_s,
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "cost_usd": result.cost_usd,
        **({"nodes": result.nodes.model_dump(mode="json")} if result.nodes is not None else {}),
    }


def _message_fields(message: Any) -> tuple[str, str, list[dict[str, Any]]]:
    """(role, text, tool calls as {name, args}) of a LangChain message or a message dict."""
    if hasattr(message, "type") and hasattr(message, "content"):
        calls = [
            {"name": c["name"], "args": c.get("args", {})}
            for c in getattr(message, "tool_calls", None) or []
        ]
        return str(message.type), str(message.content), calls
    if not isinstance(message, Mapping):
        return "", str(message), []
    body = message.get("kwargs", message) if message.get("lc") else message
    role = str(body.get("type") or body.get("role") or "")
    if message.get("lc") and isinstance(message.get("id"), list):
        role = {"AIMessage": "ai", "ToolMessage": "tool", "HumanMessage": "human"}.get(
            str(message["id"][-1]), role
        )
    calls = []
    for call in body.get("tool_calls") or []:
        function = call.get("function")
        if isinstance(function, Mapping):  # OpenAI format: arguments is a JSON string
            try:
                args = json.loads(function.get("arguments") or "{}")
            except ValueError:
                args = {"raw": function.get("arguments")}
            calls.append({"name": str(function.get("name")), "args": args})
        else:
            calls.append({"name": str(call.get("name")), "args": call.get("args") or {}})
    return role, str(body.get("content") or ""), calls


def _from_messages(messages: list[Any]) -> tuple[str, list[TrajectoryStep]]:
    steps: list[TrajectoryStep] = []
    answer = ""
    for message in messages:
        role, text, calls = _message_fields(message)
        for call in calls:
            args = call["args"] if isinstance(call["args"], dict) else {"value": call["args"]}
            steps.append(TrajectoryStep(index=len(steps), tool=call["name"], args=args))
        if role in ("ai", "assistant") and not calls:
            answer = text
    return answer, steps


def result_from_outputs(outputs: Mapping[str, Any] | None, case_id: str) -> RunResult:
    """The arena result an evaluator scores, from a LangSmith run's ``outputs``."""
    outputs = outputs or {}
    answer, steps = "", list[TrajectoryStep]()
    messages = outputs.get("messages")
    if isinstance(messages, list):
        answer, steps = _from_messages(messages)
    for key in _ANSWER_KEYS:
        if isinstance(outputs.get(key), str):
            answer = outputs[key]
            break
    if isinstance(outputs.get("tool_calls"), list):
        steps = [
            TrajectoryStep(
                index=i,
                tool=str(c.get("name") or c.get("tool")),
                args=dict(c.get("args") or {}),
                agent=str(c.get("agent") or "agent"),
                observation=str(c.get("observation") or ""),
                error=c.get("error"),
            )
            for i, c in enumerate(outputs["tool_calls"])
        ]
    files = outputs.get("files")
    files = files if isinstance(files, Mapping) else {}
    error = outputs.get("error")
    nodes = outputs.get("nodes")
    return RunResult(
        variant="langsmith",
        variant_hash="-",
        case_id=case_id,
        case_hash="-",
        output=answer,
        steps=steps,
        files={str(k): str(v) for k, v in files.items()},
        error=str(error) if error else None,
        nodes=NodePath.model_validate(nodes) if isinstance(nodes, Mapping) else None,
    )


def _score(
    inputs: dict[str, Any],
    outputs: dict[str, Any],
    reference_outputs: dict[str, Any],
    grader: BehaviorGrader | None,
) -> CaseScore:
    case = case_from_reference(inputs or {}, reference_outputs)
    result = result_from_outputs(outputs, case.id)
    if grader is None:
        return score_result(result, case)
    return asyncio.run(score_results([(result, case)], grader))[0]


class _ScoreOnce:
    """The golden score of one example, computed once for all the evaluators that read it
    (LangSmith calls each evaluator separately; with an LLM grader each call was a grading)."""

    def __init__(self, grader: BehaviorGrader | None, keep: int = 256) -> None:
        self.grader, self.keep = grader, keep
        self._done: OrderedDict[str, CaseScore] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(
        self, inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> CaseScore:
        key = json.dumps([inputs, outputs, reference_outputs], sort_keys=True, default=str)
        with self._lock:
            if key in self._done:
                return self._done[key]
        score = _score(inputs, outputs, reference_outputs, self.grader)
        with self._lock:
            self._done[key] = score
            while len(self._done) > self.keep:
                self._done.popitem(last=False)
        return score


def _component(score: CaseScore, name: str, what: str) -> dict[str, Any]:
    key = f"golden_{name}"
    if name not in score.components:
        return {"key": key, "score": None, "comment": f"not applicable: the case has no {what}"}
    value = score.components[name]
    comment = f"{name} {value:.3f}"
    if name == "behavior" and score.behavior is not None:
        comment += f" ({score.behavior.grader}: {score.behavior.rationale})"
    if name == "trajectory":
        detail = score.details.get("trajectory", {})
        modes = ", ".join(
            f"{m} {'yes' if v['matched'] else 'no'} ({v['score']:.2f})"
            for m, v in detail.get("match", {}).items()
        )
        comment += f"; tools {detail.get('tools')}; match: {modes}"
    if name == "output":
        missed = score.details.get("output", {}).get("contains", {}).get("missed")
        if missed:
            comment += f"; missing {missed}"
    return {"key": key, "score": value, "comment": comment}


def make_evaluators(grader: BehaviorGrader | None = None) -> list[Evaluator]:
    """The six golden evaluators; ``grader`` grades behaviours and rubrics (an LLM grader),
    the keyword rules otherwise."""
    scored = _ScoreOnce(grader)

    def golden_score(
        inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> dict[str, Any]:
        score = scored(inputs, outputs, reference_outputs)
        verdict = "pass" if score.passed else "fail: " + "; ".join(score.fail_reasons)
        return {"key": "golden_score", "score": score.score, "comment": verdict}

    def golden_pass(
        inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> dict[str, Any]:
        score = scored(inputs, outputs, reference_outputs)
        return {
            "key": "golden_pass",
            "score": float(score.passed),
            "comment": "; ".join(score.fail_reasons) or "pass",
        }

    def golden_output(
        inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> dict[str, Any]:
        return _component(scored(inputs, outputs, reference_outputs), "output", "output checks")

    def golden_trajectory(
        inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> dict[str, Any]:
        return _component(scored(inputs, outputs, reference_outputs), "trajectory", "trajectory")

    def golden_behavior(
        inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> dict[str, Any]:
        return _component(
            scored(inputs, outputs, reference_outputs), "behavior", "expected behaviour"
        )

    def golden_functional(
        inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> dict[str, Any]:
        return _component(
            scored(inputs, outputs, reference_outputs), "functional", "expected files"
        )

    return [
        golden_score,
        golden_pass,
        golden_output,
        golden_trajectory,
        golden_behavior,
        golden_functional,
    ]


def trajectory_match(mode: MatchMode = "strict", args_mode: ArgsMode = "approx") -> Evaluator:
    """An evaluator of one trajectory match mode against the case's expected calls.

    The reference calls are ``expected_order`` (else ``expected_tools``, else the best of
    ``acceptable_tools``) with their ``expected_args``; the score is the mode's partial
    credit, as ``arena score`` reports it (``details.trajectory.match``) for ``approx``.
    """
    key = f"trajectory_{mode}" + ("" if args_mode == "approx" else f"_{args_mode}")

    def evaluator(
        inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> dict[str, Any]:
        case = case_from_reference(inputs or {}, reference_outputs)
        result = result_from_outputs(outputs, case.id)
        if args_mode == "approx":  # exactly what `arena score` reports
            trajectory = score_result(result, case).details["trajectory"]
            names = trajectory["selection"]["reference"]
        else:
            names = case.expected_order or case.expected_tools
        names = case.expected_order or case.expected_tools or names
        reference = [ToolCall(name=n, args=dict(case.expected_args.get(n, {}))) for n in names]
        verdict = match_trajectory(
            calls_from_steps(result.steps), reference, mode=mode, args_mode=args_mode
        )
        return {
            "key": key,
            "score": verdict.score,
            "comment": f"matched: {verdict.matched} ({verdict.matched_pairs} of "
            f"{verdict.agent_calls} agent / {verdict.reference_calls} "
            "reference calls)",
        }

    evaluator.__name__ = key
    return evaluator


arena_evaluators: list[Evaluator] = make_evaluators()
"""The golden evaluators with the offline keyword grader."""

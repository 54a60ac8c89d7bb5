"""One score per result: the weighted components, hard fails and the pass verdict.

============== ====== ============================================================
component      weight applies when
============== ====== ============================================================
``output``     0.35   the case has contains / regex / exact (or only not-contains) checks
``trajectory`` 0.35   always (its own mix: ``arena.scoring._tool_use``)
``behavior``   0.20   the case has ``expected_behavior``
``functional`` 0.10   the case has ``expected_files``
``rubric``     0.20   the case has a ``rubric`` and an LLM grader graded it
============== ====== ============================================================

Weights of components that do not apply are redistributed proportionally over those
that do. A result passes when its score is at least :data:`PASS_THRESHOLD` (0.7) and no
hard fail applies. Hard fails: the run errored (score forced to 0), the output is empty,
a forbidden tool was called, a required action was missed (an expected tool, order or
arguments left unmet by the calls that count: a call that raised, timed out or was
unavailable does not, :mod:`arena.scoring._required`), a not-contains string appears, or the
behaviour or rubric grader failed. The score still ranks; no met check buys back a hard
fail. Keyword rules cannot grade a free-text rubric: without an LLM grader (``--grader``)
the rubric is left ungraded (``details['rubric']`` says so).
Pending-tier cases are scored like any other but carry ``counted=False``.

A conversation case adds the ``turns`` component (weight 0.35, :mod:`arena.scoring.checks._turns`):
its per-turn expectations, each unmet one a hard fail naming the turn; the other components
score the end state (the last reply, every tool call of every turn, the sandbox's files). A
conversation whose simulated user failed (``RunResult.simulator_error``) is not scored: its
score carries ``simulator_error`` and is neither a pass nor a failure (the aggregates, the
baselines and the gate leave it out and count it apart).
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from arena.golden._models import GoldenCase, Tier
from arena.records.results import RunResult
from arena.scoring._behavior import (
    BehaviorGrade,
    BehaviorGrader,
    KeywordBehaviorGrader,
    RubricGrade,
    RubricGrader,
    failed_grade,
)
from arena.scoring._output import score_output
from arena.scoring._tool_use import weighted_mean
from arena.scoring._types import Check
from arena.scoring.checks import (
    OUTPUT,
    CheckInput,
    FailReason,
    GoldenCheck,
    general_reason,
    golden_checks,
)

WEIGHTS: dict[str, float] = {
    "output": 0.35,
    "trajectory": 0.35,
    "behavior": 0.20,
    "functional": 0.10,
}
"""Weights of the top-level components (see the module docstring)."""
RUBRIC_WEIGHT = 0.20
"""Weight of a graded rubric, relative to :data:`WEIGHTS` (renormalised like them)."""
PASS_THRESHOLD = 0.7
"""Minimum combined score for a pass (hard fails aside)."""
Verdicts = dict[str, tuple[GoldenCheck, Check]]
"""Each applicable component: the check that gave it and its verdict."""


class CaseScore(BaseModel):
    """The score of one result (one variant, one case, one repeat).

    ``components`` holds the four weighted components (``output``, ``trajectory``,
    ``behavior``, ``functional``; only those that apply) and their sub-scores under
    dotted names (``output.contains``, ``trajectory.selection``, ...).
    """

    model_config = ConfigDict(extra="forbid")

    result_id: int | None = None
    variant: str
    variant_hash: str
    case_id: str
    category: str
    tier: str
    repeat: int = 0
    counted: bool = True
    score: float = Field(ge=0.0, le=1.0)
    passed: bool
    components: dict[str, float] = Field(default_factory=dict)
    details: dict[str, Any] = Field(default_factory=dict)
    behavior: BehaviorGrade | None = None
    rubric: RubricGrade | None = None
    error: str | None = None
    fail_reasons: list[FailReason] = Field(default_factory=list)
    conversation: bool = Field(
        False, exclude_if=lambda v: not v, description="The case is a conversation."
    )
    simulator_error: str | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="The simulated user failed: the result is neither a pass nor a failure "
        "and is left out of every pass figure.",
    )


def _checks(data: CheckInput) -> Verdicts:
    """Each applicable top-level component: its check (output: the first output check) and
    verdict. Output checks are combined into one ``output`` component."""
    checks: Verdicts = {}
    for check in golden_checks():
        if check.component == OUTPUT:
            if OUTPUT not in checks:
                output = score_output(data.output, data.case, data.result)
                if output is not None:
                    checks[OUTPUT] = (check, output)
            continue
        verdict = check.score(data)
        if verdict is not None:
            checks[check.component] = (check, verdict)
    return checks


def _components(checks: Verdicts) -> dict[str, float]:
    components = {name: check.score for name, (_, check) in checks.items()}
    for name, (owner, check) in checks.items():
        if name == OUTPUT:
            for sub, details in check.details.items():
                components[f"output.{sub}"] = details["score"]
        else:
            for sub, value in owner.subscores(check).items():
                components[f"{name}.{sub}"] = value
    return components


def _per_check(
    checks: Verdicts,
) -> list[tuple[GoldenCheck, Check]]:
    """Every check with its own verdict (each output check apart), in registry order."""
    out: list[tuple[GoldenCheck, Check]] = []
    for check in golden_checks():
        if check.component == OUTPUT:
            details = checks.get(OUTPUT, (check, Check(score=0, passed=True)))[1].details
            if check.name in details:
                sub = dict(details[check.name])
                score = sub.pop("score")
                out.append((check, Check(score=score, passed=score >= 1.0, details=sub)))
        elif check.component in checks and checks[check.component][0] is check:
            out.append((check, checks[check.component][1]))
    return out


def _weights(checks: Verdicts) -> dict[str, float]:
    """:data:`WEIGHTS`, the rubric's, and a plugin component's own ``weight``."""
    weights = {**WEIGHTS, "rubric": RUBRIC_WEIGHT}
    for name, (check, _) in checks.items():
        weights.setdefault(name, check.weight)
    return weights


def _hard_fails(result: RunResult, checks: Verdicts) -> list[FailReason]:
    reasons: list[FailReason] = []
    if not result.output.strip():
        reasons.append(general_reason("empty output", "output", check=OUTPUT, hard=True))
    for check, verdict in _per_check(checks):
        reasons.extend(check.reason(text, hard=True) for text in check.hard_fails(verdict))
    return reasons


def _hints(checks: Verdicts) -> list[FailReason]:
    """What failed, the output checks first (what the answer lacks), then the others."""
    ordered = sorted(_per_check(checks), key=lambda pair: pair[0].component != OUTPUT)
    return [check.reason(text) for check, verdict in ordered for text in check.hints(verdict)]


def _errored(result: RunResult, case: GoldenCase, base: dict[str, Any]) -> CaseScore:
    applicable: list[str] = []
    for check in golden_checks():
        if check.component == "rubric" or check.component in applicable:
            continue  # an ungraded rubric never applies to a run that errored
        if check.applies(case):
            applicable.append(check.component)
    return CaseScore(
        **base,
        score=0.0,
        passed=False,
        components={name: 0.0 for name in applicable},
        details={"tools": result.tool_names, "error": result.error},
        error=result.error,
        fail_reasons=[
            general_reason(f"run error: {result.error_headline}", "error", check="run", hard=True)
        ],
    )


def _simulator_errored(result: RunResult, base: dict[str, Any]) -> CaseScore:
    why = result.simulator_error or ""
    return CaseScore(
        **base,
        score=0.0,
        passed=False,
        details={"tools": result.tool_names, "simulator_error": why},
        simulator_error=why,
        fail_reasons=[
            general_reason(
                f"simulator error (not an agent failure): {why}",
                None,
                check="simulator",
                hard=False,
            )
        ],
    )


def score_result(
    result: RunResult,
    case: GoldenCase,
    *,
    behavior: BehaviorGrade | None = None,
    available_tools: set[str] | None = None,
    rubric: RubricGrade | None = None,
) -> CaseScore:
    """Score one result against its case (pure and synchronous).

    ``behavior`` is a precomputed grade; when the case expects a behaviour and none is
    given, the deterministic keyword grader is applied. ``rubric`` is a precomputed grade
    of the case's ``rubric`` (an LLM grader's); without one the rubric is not graded. A
    result with ``error`` set scores 0 and fails; one with a ``simulator_error`` (and no
    error of the agent) is marked so, neither passing nor failing.
    """
    if result.case_id != case.id:
        raise ValueError(f"result is for case {result.case_id!r}, not {case.id!r}")
    base: dict[str, Any] = {
        "result_id": result.id,
        "variant": result.variant,
        "variant_hash": result.variant_hash,
        "case_id": case.id,
        "category": case.category,
        "tier": case.tier.value,
        "repeat": result.repeat,
        "counted": case.tier != Tier.PENDING,
        "conversation": case.is_conversation,
    }
    if result.error is not None:
        return _errored(result, case, base)
    if result.simulator_error is not None:
        return _simulator_errored(result, base)
    grade = None
    if case.expected_behavior is not None:
        grade = behavior or KeywordBehaviorGrader().grade_sync(case, result.output)
    data = CheckInput(
        case=case,
        output=result.output,
        result=result,
        available_tools=available_tools,
        behavior=grade,
        rubric=rubric,
    )
    checks = _checks(data)
    score, weights = weighted_mean({k: c.score for k, (_, c) in checks.items()}, _weights(checks))
    score = min(1.0, max(0.0, score))
    reasons = _hard_fails(result, checks)
    passed = not reasons and score >= PASS_THRESHOLD
    if score < PASS_THRESHOLD:
        reasons.append(
            general_reason(
                f"score {score:.2f} < {PASS_THRESHOLD:.2f}", None, check="score", hard=False
            )
        )
    if not passed:
        reasons.extend(_hints(checks))
    details = {
        name: check.details
        for name, (_, check) in checks.items()
        if name not in ("behavior", "rubric")
    }
    details["weights"] = weights
    if case.rubric and "rubric" not in checks:
        details["rubric"] = {
            "graded": False,
            "why": "keyword rules cannot grade a free-text "
            "rubric: score with an LLM grader (--grader)",
        }
    return CaseScore(
        **base,
        score=score,
        passed=passed,
        components=_components(checks),
        details=details,
        behavior=grade,
        rubric=rubric if "rubric" in checks else None,
        fail_reasons=reasons,
    )


def _gradable(result: RunResult) -> bool:
    """Neither the agent nor the simulated user failed."""
    return result.error is None and result.simulator_error is None


async def _grade_one(
    grader: BehaviorGrader, case: GoldenCase, output: str, gate: asyncio.Semaphore
) -> BehaviorGrade:
    spec = str(getattr(grader, "spec", type(grader).__name__))
    async with gate:
        try:
            return await grader.grade(case, output)
        except Exception as exc:  # recorded as the behaviour component's error, never a pass
            return failed_grade(case, spec, f"{type(exc).__name__}: {exc}"[:500])


async def _rubric_one(
    grader: RubricGrader, case: GoldenCase, output: str, gate: asyncio.Semaphore
) -> RubricGrade:
    async with gate:
        try:
            return await grader.grade_rubric(case, output)
        except Exception as exc:  # recorded as the rubric's error, never a pass
            return RubricGrade(
                rubric=case.rubric or "",
                score=0.0,
                passed=False,
                grader=grader.spec,
                rationale="the grader failed",
                error=f"{type(exc).__name__}: {exc}"[:500],
            )


async def score_results(
    pairs: list[tuple[RunResult, GoldenCase]],
    grader: BehaviorGrader | None = None,
    available_tools: set[str] | None = None,
    concurrency: int = 4,
) -> list[CaseScore]:
    """Grade behaviours (keyword grader when none is given), then score every pair.

    Only results without an error whose case expects a behaviour are graded, at most
    ``concurrency`` at a time. When the grader can also grade rubrics
    (:class:`RubricGrader`, the LLM grader), cases with a ``rubric`` are graded too. A
    grader exception becomes a zero, failing grade with its error recorded. Scores come
    back in the order of ``pairs``.
    """
    active: BehaviorGrader = grader if grader is not None else KeywordBehaviorGrader()
    gate = asyncio.Semaphore(max(1, concurrency))
    todo = [
        i
        for i, (result, case) in enumerate(pairs)
        if case.expected_behavior is not None and _gradable(result)
    ]
    grades = await asyncio.gather(
        *(_grade_one(active, pairs[i][1], pairs[i][0].output, gate) for i in todo)
    )
    by_index = dict(zip(todo, grades, strict=True))
    rubrics: dict[int, RubricGrade] = {}
    if isinstance(active, RubricGrader):
        marked = [i for i, (result, case) in enumerate(pairs) if case.rubric and _gradable(result)]
        graded = await asyncio.gather(
            *(_rubric_one(active, pairs[i][1], pairs[i][0].output, gate) for i in marked)
        )
        rubrics = dict(zip(marked, graded, strict=True))
    return [
        score_result(
            result,
            case,
            behavior=by_index.get(i),
            available_tools=available_tools,
            rubric=rubrics.get(i),
        )
        for i, (result, case) in enumerate(pairs)
    ]

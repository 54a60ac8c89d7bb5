"""One score per result: the weighted components, hard fails and the pass verdict.

============== ====== ============================================================
component      weight applies when
============== ====== ============================================================
``output``     0.35   the case has contains / regex / exact (or only not-contains) checks
``trajectory`` 0.35   always (its own mix: ``arena.scoring.tool_use``)
``behavior``   0.20   the case has ``expected_behavior``
``functional`` 0.10   the case has ``expected_files``
``rubric``     0.20   the case has a ``rubric`` and an LLM grader graded it
============== ====== ============================================================

Weights of components that do not apply are redistributed proportionally over those
that do. A result passes when its score is at least :data:`PASS_THRESHOLD` (0.7) and no
hard fail applies. Hard fails: the run errored (score forced to 0), the output is empty,
a forbidden tool was called, a not-contains string appears, or the behaviour or rubric
grader failed. Keyword rules cannot grade a free-text rubric: without an LLM grader
(``--grader``) the rubric is left ungraded (``details['rubric']`` says so).
Pending-tier cases are scored like any other but carry ``counted=False``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from arena.golden.models import GoldenCase, Tier
from arena.records import RunResult
from arena.scoring.behavior import (
    BehaviorGrade,
    BehaviorGrader,
    KeywordBehaviorGrader,
    RubricGrade,
    RubricGrader,
    failed_grade,
)
from arena.scoring.functional import score_files
from arena.scoring.output import score_output
from arena.scoring.tool_use import score_trajectory, weighted_mean
from arena.scoring.types import Check

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
    fail_reasons: list[str] = Field(default_factory=list)


def _behavior_check(grade: BehaviorGrade) -> Check:
    details = grade.model_dump(mode="json")
    return Check(
        score=0.0 if grade.error else grade.score,
        passed=grade.passed and grade.error is None,
        details=details,
    )


def _rubric_check(grade: RubricGrade) -> Check:
    return Check(
        score=0.0 if grade.error else grade.score,
        passed=grade.passed and grade.error is None,
        details=grade.model_dump(mode="json"),
    )


def _checks(
    result: RunResult,
    case: GoldenCase,
    grade: BehaviorGrade | None,
    available_tools: set[str] | None,
    rubric: RubricGrade | None = None,
) -> dict[str, Check]:
    checks: dict[str, Check] = {"trajectory": score_trajectory(result, case, available_tools)}
    output = score_output(result.output, case)
    if output is not None:
        checks["output"] = output
    if grade is not None:
        checks["behavior"] = _behavior_check(grade)
    functional = score_files(result.files, case.expected_files)
    if functional is not None:
        checks["functional"] = functional
    if case.rubric and rubric is not None:
        checks["rubric"] = _rubric_check(rubric)
    return checks


def _components(checks: dict[str, Check]) -> dict[str, float]:
    components = {name: check.score for name, check in checks.items()}
    for name in ("contains", "not_contains", "regex", "exact"):
        if "output" in checks and name in checks["output"].details:
            components[f"output.{name}"] = checks["output"].details[name]["score"]
    for name, value in checks["trajectory"].details["components"].items():
        components[f"trajectory.{name}"] = value
    return components


def _hard_fails(result: RunResult, checks: dict[str, Check]) -> list[str]:
    reasons: list[str] = []
    if not result.output.strip():
        reasons.append("empty output")
    violations = checks["trajectory"].details.get("forbidden", {}).get("violations", [])
    if violations:
        reasons.append(f"forbidden tool called: {', '.join(sorted(set(violations)))}")
    output = checks.get("output")
    if output is not None and "not_contains" in output.details:
        found = output.details["not_contains"]["violations"]
        if found:
            reasons.append(f"output contains forbidden text: {found}")
    behavior = checks.get("behavior")
    if behavior is not None and behavior.details.get("error"):
        reasons.append(f"behaviour grader failed: {behavior.details['error']}")
    rubric = checks.get("rubric")
    if rubric is not None and rubric.details.get("error"):
        reasons.append(f"rubric grader failed: {rubric.details['error']}")
    return reasons


def _short(item: object, limit: int = 3) -> str:
    if isinstance(item, list):
        shown = " | ".join(repr(x) for x in item[:limit])
        more = f" | ... (+{len(item) - limit})" if len(item) > limit else ""
        return f"[{shown}{more}]"
    return repr(item)


def _hints(checks: dict[str, Check]) -> list[str]:
    hints: list[str] = []
    output = checks.get("output")
    if output is not None:
        missed = output.details.get("contains", {}).get("missed")
        if missed:
            hints.append("output missing: " + ", ".join(_short(item) for item in missed))
        for name in ("regex", "exact"):
            if name in output.details and output.details[name]["score"] < 1:
                hints.append(f"output {name} check failed")
    trajectory = checks["trajectory"].details
    if trajectory["components"]["selection"] < 1:
        hints.append(
            f"tools {trajectory['tools']} vs expected {trajectory['selection']['reference']}"
        )
    if trajectory["hallucinated_tools"]:
        hints.append(f"unknown tools called: {', '.join(trajectory['hallucinated_tools'])}")
    behavior = checks.get("behavior")
    if behavior is not None and not behavior.passed and not behavior.details.get("error"):
        hints.append(
            f"behaviour {behavior.details['behavior']} not shown "
            f"({behavior.details['grader']}: {behavior.details['rationale']})"
        )
    functional = checks.get("functional")
    if functional is not None and not functional.passed:
        hints.append("expected file missing or incomplete")
    rubric = checks.get("rubric")
    if rubric is not None and not rubric.passed and not rubric.details.get("error"):
        hints.append(f"rubric not met ({rubric.details['grader']}: {rubric.details['rationale']})")
    return hints


def _errored(result: RunResult, case: GoldenCase, base: dict[str, Any]) -> CaseScore:
    applicable = [
        "trajectory",
        "output" if _has_output_checks(case) else "",
        "behavior" if case.expected_behavior else "",
        "functional" if case.expected_files else "",
    ]
    return CaseScore(
        **base,
        score=0.0,
        passed=False,
        components={name: 0.0 for name in applicable if name},
        details={"tools": result.tool_names, "error": result.error},
        error=result.error,
        fail_reasons=[f"run error: {result.error_headline}"],
    )


def _has_output_checks(case: GoldenCase) -> bool:
    return bool(
        case.expected_output_contains
        or case.expected_output_not_contains
        or case.expected_output_regex is not None
        or case.expected_output_exact is not None
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
    result with ``error`` set scores 0 and fails.
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
    }
    if result.error is not None:
        return _errored(result, case, base)
    grade = None
    if case.expected_behavior is not None:
        grade = behavior or KeywordBehaviorGrader().grade_sync(case, result.output)
    checks = _checks(result, case, grade, available_tools, rubric)
    score, weights = weighted_mean(
        {k: c.score for k, c in checks.items()}, {**WEIGHTS, "rubric": RUBRIC_WEIGHT}
    )
    score = min(1.0, max(0.0, score))
    reasons = _hard_fails(result, checks)
    passed = not reasons and score >= PASS_THRESHOLD
    if score < PASS_THRESHOLD:
        reasons.append(f"score {score:.2f} < {PASS_THRESHOLD:.2f}")
    if not passed:
        reasons.extend(_hints(checks))
    details = {
        name: check.details for name, check in checks.items() if name not in ("behavior", "rubric")
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
        if case.expected_behavior is not None and result.error is None
    ]
    grades = await asyncio.gather(
        *(_grade_one(active, pairs[i][1], pairs[i][0].output, gate) for i in todo)
    )
    by_index = dict(zip(todo, grades, strict=True))
    rubrics: dict[int, RubricGrade] = {}
    if isinstance(active, RubricGrader):
        marked = [
            i for i, (result, case) in enumerate(pairs) if case.rubric and result.error is None
        ]
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

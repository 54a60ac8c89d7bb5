"""Online evaluation of what production did (``arena shadow --evaluate-only``): reference-free
checks on every sampled trace, stored with the run and reported.

With a rubric (``--rubric TEXT``, or a dataset's ``judge:`` block: its persona and rubric),
every answer is also graded alone against it with the judge's ``grades`` mode (P(YES) of one
token, cached in the store; :mod:`arena.production._grading`): the grade is stored and
reported, and an answer graded below one half is flagged ``rubric``.

The checks need no model: production raised an error; a tool call failed; the answer is
empty; the answer seems to address a grader (:func:`judges._injection.suspected_injection`,
the detector every battle runs); the latency or the cost is above a limit. Each trace's
checks are stored as a score of its production result (grader :data:`GRADER`), so
``arena score`` and the app read them like golden scores.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from arena.production._grading import RubricCheck, check_grader, grade_answers, rubric_flags
from arena.production._replay import PRODUCTION
from arena.production._trace import ProductionTrace
from arena.scoring import CaseScore
from arena.scoring.checks._reasons import FailReason, FailureKind
from arena.storage import Store
from judges._injection import suspected_injection

#: The grader name production checks are stored under.
GRADER = "production-checks"
#: Every check, in report order, and the kind of failure it is.
CHECKS: dict[str, FailureKind | None] = {
    "error": "error",
    "tool_error": "trajectory",
    "empty_answer": "output",
    "injection": "output",
    "latency": None,
    "cost": None,
    "rubric": "behavior",
}


class TraceLimits(BaseModel):
    """Limits a trace must stay within (None: not checked)."""

    max_latency_s: float | None = Field(None, gt=0)
    max_cost: float | None = Field(None, ge=0)


class FlaggedTrace(BaseModel):
    """A trace that failed a check, and why."""

    trace_id: str
    case_id: str
    query: str
    answer: str
    flags: dict[str, str]


class QualityReport(BaseModel):
    """The production quality report: how many sampled traces each check flagged."""

    run_id: int | None = None
    model_calls: int = 0
    sampled: int
    flagged: list[FlaggedTrace]
    counts: dict[str, int]
    pass_rate: float | None
    grades: dict[str, float] = Field(
        default_factory=dict,
        description="Trace id -> P(YES) of its answer against the rubric (the grades mode).",
    )

    def summary(self) -> dict[str, object]:
        """The report's JSON."""
        return self.model_dump(mode="json")


def trace_flags(trace: ProductionTrace, limits: TraceLimits) -> dict[str, str]:
    """Check name -> why, for every check ``trace`` fails (empty: it passed them all)."""
    flags: dict[str, str] = {}
    if trace.error:
        flags["error"] = f"production raised: {trace.error[:200]}"
    failed = [t.name for t in trace.tools if t.error]
    if failed:
        flags["tool_error"] = f"tool call(s) failed: {', '.join(failed)}"
    if not trace.answer.strip() and not trace.error:
        flags["empty_answer"] = "the answer is empty"
    reasons = suspected_injection(trace.answer)  # the query is a user's: it exempts nothing
    if reasons:
        flags["injection"] = "the answer seems to address a grader: " + "; ".join(reasons)
    if limits.max_latency_s is not None and (trace.latency_s or 0) > limits.max_latency_s:
        flags["latency"] = f"{trace.latency_s:g} s > {limits.max_latency_s:g} s"
    if limits.max_cost is not None and (trace.cost or 0) > limits.max_cost:
        flags["cost"] = f"${trace.cost:g} > ${limits.max_cost:g}"
    return flags


def evaluate_traces(
    traces: list[ProductionTrace],
    limits: TraceLimits,
    grades: dict[str, float | str] | None = None,
) -> QualityReport:
    """The quality report of ``traces`` (pure: nothing stored); ``grades`` is case id -> the
    answer's rubric grade, or why it could not be graded
    (:func:`~arena.production._grading.grade_answers`)."""
    flagged = []
    counts = dict.fromkeys(CHECKS, 0)
    failed = rubric_flags(grades or {})
    for trace in traces:
        flags = trace_flags(trace, limits)
        if trace.case_id in failed:
            flags["rubric"] = failed[trace.case_id]
        for name in flags:
            counts[name] += 1
        if flags:
            flagged.append(
                FlaggedTrace(
                    trace_id=trace.trace_id,
                    case_id=trace.case_id,
                    query=trace.query,
                    answer=trace.answer,
                    flags=flags,
                )
            )
    rate = 1 - len(flagged) / len(traces) if traces else None
    graded = {
        t.trace_id: grade
        for t in traces
        if isinstance(grade := (grades or {}).get(t.case_id), float)
    }
    return QualityReport(
        sampled=len(traces), flagged=flagged, counts=counts, pass_rate=rate, grades=graded
    )


def store_checks(
    store: Store, run_id: int, report: QualityReport, traces: list[ProductionTrace]
) -> None:
    """Store each production result's checks (and rubric grade) as its score (grader
    :data:`GRADER`)."""
    dataset = store.run_dataset(run_id)
    cases = {c.id: c for c in dataset.test_cases}
    flags = {f.case_id: f.flags for f in report.flagged}
    grades = {t.case_id: report.grades[t.trace_id] for t in traces if t.trace_id in report.grades}
    scores = []
    for result in store.results(run_id):
        if result.variant != PRODUCTION:
            continue
        failed = flags.get(result.case_id, {})
        scores.append(
            CaseScore(
                result_id=result.id,
                variant=result.variant,
                variant_hash=result.variant_hash,
                case_id=result.case_id,
                category=cases[result.case_id].category,
                tier=cases[result.case_id].tier.value,
                repeat=result.repeat,
                score=0.0 if failed else 1.0,
                passed=not failed,
                details={"checks": failed, **_grade(grades.get(result.case_id))},
                fail_reasons=[
                    FailReason(why, check=f"production.{name}", kind=CHECKS[name])
                    for name, why in failed.items()
                ],
            )
        )
    store.save_scores(run_id, GRADER, scores)


def _grade(grade: float | None) -> dict[str, float]:
    return {} if grade is None else {"rubric_grade": grade}


def evaluate_sample(
    store: Store,
    traces: list[ProductionTrace],
    limits: TraceLimits,
    *,
    source: str,
    rubric: RubricCheck | None = None,
) -> QualityReport:
    """Store the sampled traces as a run of production's answers (no model call), check
    every one (grading the answers against ``rubric`` when given), store the checks as
    scores; the report, with the run's id and the model calls sent."""
    from arena.production._replay import replay
    from arena.runner import RunOptions

    check_grader(rubric)  # before anything is stored
    ran = replay(store, traces, None, source=source, options=RunOptions(progress=False))
    grades, calls = grade_answers(store, traces, rubric) if rubric else ({}, 0)
    report = evaluate_traces(traces, limits, grades)
    store_checks(store, ran.run_id, report, traces)
    return report.model_copy(update={"run_id": ran.run_id, "model_calls": calls})

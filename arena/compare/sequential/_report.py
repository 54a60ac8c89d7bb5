"""What a sequential comparison decided, where and why it stopped, and what it saved."""

from __future__ import annotations

from pydantic import BaseModel, Field

from arena.compare.sequential._sequence import SequencePlan, level
from arena.compare.sequential._trace import Point

#: The compare vocabulary of each sequential decision (what ``arena gate``'s fail_on reads).
VERDICTS = {
    "better": "better",
    "worse": "worse",
    "non-inferior": "non-inferior",
    "undecided": "inconclusive",
}


class Savings(BaseModel):
    """The full design's estimate (``arena plan``) and the share of it never spent."""

    full_agent_calls: int
    full_judge_calls: int
    full_cost_usd: float
    saved_agent_calls: int
    saved_judge_calls: int
    saved_cost_usd: float


class SequentialReport(BaseModel):
    """A sequential comparison: the decision, its interval, the cases used, the savings.

    ``verdict``, ``summary`` and ``reasons`` read like
    :class:`arena.compare._compare.CompareReport`'s, so the gate's report and its ``fail_on``
    treat both alike.
    """

    run_id: int
    baseline: str
    candidate: str
    judge: str | None
    alpha: float
    margin: float
    population: str
    decision: str
    futile: bool = Field(
        False, description="Stopped undecided because more cases would not settle it."
    )
    verdict: str
    stopped_because: str
    cases_used: int
    cases_total: int
    cases_skipped: list[str] = Field(
        default_factory=list, description="Cases without an outcome (an error): not counted."
    )
    critical_failures: list[str] = Field(default_factory=list)
    lower: float | None
    upper: float | None
    mean: float | None
    agent_calls: int
    judge_calls: int
    savings: Savings | None = None
    trace: list[Point] = Field(default_factory=list)
    plan: SequencePlan | None = Field(
        None, description="Seed, order, horizon, alpha, margin, budget and the evidence."
    )
    summary: str = ""
    reasons: list[str] = Field(default_factory=list)


def describe(report: SequentialReport) -> tuple[str, list[str]]:
    """The one-line summary and the reasons of a report."""
    name = report.plan.interval_name() if report.plan else f"{level(report.alpha)} anytime-valid"
    interval = (
        f"win share {report.mean:.2f}, {name} interval [{report.lower:.3f}, {report.upper:.3f}]"
        if report.mean is not None and report.lower is not None and report.upper is not None
        else "no paired outcome yet"
    )
    summary = (
        f"{report.candidate} vs {report.baseline}: {report.verdict.upper()} (sequential: "
        f"stopped after {report.cases_used} of {report.cases_total} cases; {interval})"
    )
    reasons = [report.stopped_because]
    if report.plan is not None:
        reasons.append(report.plan.describe())
    if report.population != "sample":
        reasons.append(f"population: {report.population}")
    if report.cases_skipped:
        reasons.append(
            f"{len(report.cases_skipped)} case(s) without an outcome (errors), not counted: "
            + ", ".join(report.cases_skipped)
        )
    if report.savings is not None:
        s = report.savings
        reasons.append(
            f"saved against the full design ({s.full_agent_calls} agent and "
            f"{s.full_judge_calls} judge calls, ${s.full_cost_usd:.4f} by arena plan's "
            f"estimate): {s.saved_agent_calls} agent calls, {s.saved_judge_calls} judge calls, "
            f"${s.saved_cost_usd:.4f}"
        )
    return summary, reasons


def sequential_markdown(report: SequentialReport) -> str:
    """A Markdown block: the decision, where it stopped, and the sequence case by case."""
    rows = [
        f"| {p.n} | `{p.case_id}` | {p.outcome:.2f} | {p.mean:.3f} | "
        f"[{p.lower:.3f}, {p.upper:.3f}] |"
        for p in report.trace
    ]
    return "\n".join(
        [
            f"### {report.candidate} vs {report.baseline}: **{report.verdict}** (sequential)",
            "",
            report.summary,
            "",
            *[f"- {r}" for r in report.reasons],
            "",
            "| # | case | outcome | mean | interval |",
            "| --- | --- | --- | --- | --- |",
            *rows,
            "",
        ]
    )

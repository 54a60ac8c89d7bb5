"""The formats of ``arena score``: each a function ``(ScoreReport) -> str``, registered by name
in :data:`arena.registry.REPORT_FORMATS` (``table``, ``json``, ``markdown`` or a plugin's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from arena import registry
from arena.registry import Registry, report_format
from arena.reports._format import json_text
from arena.scoring._aggregate import GroupStats, VariantScores
from arena.scoring._combined import CaseScore


@dataclass(frozen=True)
class ScoreReport:
    """What a score report shows: one run's case scores, per-variant aggregates and the pass
    figures by difficulty (variant -> difficulty -> stats)."""

    run_id: int
    grader: str
    variants: list[VariantScores]
    cases: list[CaseScore]
    by_difficulty: dict[str, dict[str, GroupStats]] = field(default_factory=dict)


ReportFormat = Callable[[ScoreReport], str]
"""What a report format is: a function from a score report to text."""

REPORT_FORMATS: Registry[ReportFormat] = registry.REPORT_FORMATS
"""The report formats (:data:`arena.registry.REPORT_FORMATS`), typed: functions."""


@report_format("table", "plain-text tables (default)", order=10)
def table(report: ScoreReport) -> str:
    """Plain-text tables: the summary, failing cases and pass rate by difficulty."""
    from arena.reports._format import text_table
    from arena.reports._render import scores_table
    from arena.scoring._difficulty import difficulty_rows

    header, *rows = difficulty_rows(report.by_difficulty)
    return "\n".join(
        [
            f"run {report.run_id}, behaviour grader: {report.grader}",
            scores_table(report.variants, report.cases),
            "\npass rate by difficulty (counted cases, passed/cases)",
            text_table(header, rows),
        ]
    )


@report_format("json", "one JSON document", order=20)
def as_json(report: ScoreReport) -> str:
    """One JSON document: every aggregate, every case score and the difficulty breakdown."""
    from arena.reports._render import scores_json

    doc = scores_json(report.variants, report.cases)
    doc["by_difficulty"] = {
        v: {d: s.model_dump() for d, s in levels.items()}
        for v, levels in report.by_difficulty.items()
    }
    return json_text({"run_id": report.run_id, "grader": report.grader, **doc})


@report_format("markdown", "Markdown tables", order=30)
def markdown(report: ScoreReport) -> str:
    """Markdown tables (secrets redacted), then the pass rate by difficulty."""
    from arena.reports._markdown import scores_markdown
    from arena.scoring._difficulty import difficulty_markdown
    from arena.secrets import redact

    title = f"Golden scores, run {report.run_id}"
    body = redact(scores_markdown(report.variants, report.cases, title=title))
    return body + "\n\n" + difficulty_markdown(report.by_difficulty)

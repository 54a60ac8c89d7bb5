"""The formats of ``arena score``: each a function ``(ScoreReport) -> str``, registered by name
in :data:`REPORT_FORMATS` (``table``, ``json``, ``markdown`` or a plugin's), declared here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from arena.registry import Registry, entry_point_group
from arena.reports._format import json_text

if TYPE_CHECKING:  # the registry's module loads no scoring (help texts read the registry)
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

F = TypeVar("F")

REPORT_FORMATS: Registry[ReportFormat] = Registry(
    "report format",
    entry_point_group("report_formats"),
    homes=(__name__,),
    declared_by="report_format",
)
"""Formats of ``arena score --format``: functions ``(ScoreReport) -> str``."""


def report_format(
    name: str, summary: str | None = None, *, replace: bool = False, order: int | None = None
) -> Callable[[F], F]:
    """Register a function ``(ScoreReport) -> str`` as ``arena score --format name``.

    Args:
        name: the format's name.
        summary: one line for ``arena score --help`` (default: the first docstring line).
        replace: replace a format already registered as ``name``.
        order: its place in listings: the built-ins (defined under the kind's home) come
            first, by ``order``; then every other entry, those with an ``order`` by it,
            then the rest in registration order.

    Returns:
        A decorator registering the function and returning it unchanged.

    Raises:
        NameTaken: ``name`` is registered already and ``replace`` is false.
        TypeError: the decorated object is not callable.
    """
    return REPORT_FORMATS.decorator(name, summary, replace=replace, order=order)


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

"""Regression gate reports as Markdown and plain text."""

from __future__ import annotations

from arena.reports.format import pct, text_table
from arena.reports.markdown import md_table
from arena.scoring.regression import RegressionReport


def _verdict(report: RegressionReport) -> str:
    return "REGRESSION DETECTED" if report.regressed else "ALL CLEAR"


def _figures(report: RegressionReport) -> list[list[str]]:
    return [
        [
            "Suite score",
            f"{report.baseline_score:.3f}",
            f"{report.candidate_score:.3f}",
            f"{report.suite_delta:+.3f}",
        ],
        [
            "Pass rate",
            pct(report.baseline_pass_rate),
            pct(report.candidate_pass_rate),
            f"{100 * report.pass_rate_delta:+.1f} pts",
        ],
    ]


def _case_lines(report: RegressionReport, code: bool) -> list[str]:
    def ids(cases: list[str]) -> str:
        return ", ".join(f"`{c}`" if code else c for c in cases) or "none"

    lines = [
        f"Broken (pass -> fail): {ids(report.broken_cases)}",
        f"Fixed (fail -> pass): {ids(report.fixed_cases)}",
    ]
    if report.missing_cases:
        lines.append(f"Not run: {ids(report.missing_cases)}")
    if report.new_cases:
        lines.append(f"New: {ids(report.new_cases)}")
    return lines


def regression_markdown(report: RegressionReport) -> str:
    """The regression verdict with the rules that fired and the cases that moved."""
    icon = "❌" if report.regressed else "✅"
    parts = [
        f"## {icon} {_verdict(report)}",
        "",
        f"Candidate `{report.candidate}` against baseline `{report.baseline}` "
        f"(max drop {report.max_drop:.3f}).",
        "",
        md_table(["Figure", "Baseline", "Candidate", "Delta"], _figures(report)),
    ]
    if report.reasons:
        rows = [[r.rule, f"`{r.case_id}`" if r.case_id else "—", r.message] for r in report.reasons]
        parts += ["", "### Rules that fired", "", md_table(["Rule", "Case", "Message"], rows)]
    parts += ["", *[f"- {line}" for line in _case_lines(report, code=True)]]
    return "\n".join(parts) + "\n"


def regression_text(report: RegressionReport) -> str:
    """The regression verdict as plain text, one rule per line."""
    rule = "=" * 60
    parts = [
        rule,
        f"  REGRESSION REPORT — {_verdict(report)}",
        f"  {report.candidate} vs baseline {report.baseline}",
        rule,
        text_table(["Figure", "Baseline", "Candidate", "Delta"], _figures(report)),
    ]
    if report.reasons:
        parts += ["", "Rules that fired:"]
        parts += [f"  [{r.rule}] {r.message}" for r in report.reasons]
    parts += ["", *_case_lines(report, code=False), rule]
    return "\n".join(parts) + "\n"

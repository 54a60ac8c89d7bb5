"""``csv``: one line per variant: name, pass rate, mean score."""

from __future__ import annotations

from arena.extend import ScoreReport, report_format


@report_format("csv", "variant,cases,passed lines (a plugin's format)")
def csv_report(report: ScoreReport) -> str:
    """variant,cases,passed per variant"""
    lines = ["variant,cases,passed"]
    for variant in report.variants:
        cases = [c for c in report.cases if c.variant == variant.variant]
        lines.append(f"{variant.variant},{len(cases)},{sum(c.passed for c in cases)}")
    return "\n".join(lines)

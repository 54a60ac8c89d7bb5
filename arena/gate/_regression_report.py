"""The regression section of the gate's reports: the verdict of the rules case by case, its
figures, the rules that fired, why cases broke and the case sets, as Markdown and plain text
(:mod:`arena.gate._report` puts it in the whole gate's report)."""

from __future__ import annotations

from arena.defaults import TIER_NAMES
from arena.gate._classify import KIND_WORDS
from arena.gate._regression import RegressionReport
from arena.gate._rule_config import RULES
from arena.reports._format import pct, text_table
from arena.reports._markdown import md_table

SEVERITY_WORDS = {"block": "blocks", "warn": "warning", "flaky": "flaky (not blocking)"}


# -- shared pieces ---------------------------------------------------------------------------
def _signed(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:+.{digits}f}"


def _num(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _figures(report: RegressionReport) -> list[list[str]]:
    interval = (
        "—"
        if report.suite_delta_low is None or report.suite_delta_high is None
        else f"[{report.suite_delta_low:+.3f}, {report.suite_delta_high:+.3f}]"
    )
    return [
        [
            "Suite score",
            _num(report.baseline_score),
            _num(report.candidate_score),
            _signed(report.suite_delta),
            interval,
        ],
        [
            "Pass rate",
            pct(report.baseline_pass_rate),
            pct(report.candidate_pass_rate),
            f"{100 * report.pass_rate_delta:+.1f} pts",
            "—",
        ],
    ]


def _headers(report: RegressionReport) -> list[str]:
    """The figures' columns; the interval's at its level (rules.alpha 0.025: "97.5%")."""
    level = f"{round(100 * report.suite_delta_level, 6):g}%"
    return ["Figure", "Baseline", "Candidate", "Delta", f"{level} interval"]


def _case_sets(report: RegressionReport, code: bool) -> list[str]:
    def ids(cases: list[str]) -> str:
        shown = []
        for case in cases:
            name = f"`{case}`" if code else case
            result = "; ".join(
                x for x in (report.changed_outcomes.get(case), _tier_note(report, case)) if x
            )
            shown.append(f"{name} ({result})" if result else name)
        return ", ".join(shown) or "none"

    counted = len(report.compared_cases) - len(report.pending_cases)
    how = "same id and content"
    if report.rerun_cases:
        how += f", or the baseline's code run on the new content ({len(report.rerun_cases)})"
    lines = [
        f"Compared ({how}): {len(report.compared_cases)} cases ({counted} counted)",
        f"Broken (pass -> fail): {ids(report.broken_cases)}",
        f"Fixed (fail -> pass): {ids(report.fixed_cases)}",
    ]
    for label, cases in (
        ("Flaky in the baseline", report.flaky_cases),
        *_not_run_sets(report),
        *_changed_sets(report),
        ("Removed from the dataset (not compared)", report.removed_cases),
        ("Only simulator errors (not compared: missing evidence)", report.simulator_error_cases),
    ):
        if cases:
            lines.append(f"{label}: {ids(cases)}")
    if report.baseline_side:
        lines.append(f"Baseline side of changed and new cases: {report.baseline_side}")
    return lines + _previous_lines(report, code)


def _previous_lines(report: RegressionReport, code: bool) -> list[str]:
    """Edited critical cases: the candidate on their previous version, the checks the edit
    removed, and previous versions not found."""

    def shown(found: dict[str, str]) -> str:
        return ", ".join(f"`{c}` ({w})" if code else f"{c} ({w})" for c, w in found.items())

    lines = []
    weakened, missing = report.weakened_cases, report.previous_missing
    if report.previous_outcomes:
        lines.append(
            "Edited critical cases, the candidate on the baseline's (previous) version: "
            + shown(report.previous_outcomes)
        )
    if weakened:
        lines.append(f"Weakened critical cases (checks the edit removed): {shown(weakened)}")
    if missing:
        lines.append(f"Edited critical cases, previous version not found: {shown(missing)}")
    return lines


def _tier_note(report: RegressionReport, case: str) -> str:
    """``critical in the baseline, removed from the dataset: blocks, critical_missing``, or
    ``""`` for a case whose tier held."""
    what = report.tier_changes.get(case)
    if not what:
        return ""
    how = "blocks" if "critical_missing" in report.blocking_rules else "warns"
    return f"{what.removeprefix('critical in the baseline, ')}: {how}, critical_missing"


def _changed_sets(report: RegressionReport) -> list[tuple[str, list[str]]]:
    """Changed and new cases: compared against the baseline's code, or why not (a case whose
    baseline side was only simulator errors is listed with those)."""
    rerun = [c for c in (*report.changed_cases, *report.new_cases) if c in report.rerun_cases]
    why = "not compared: no baseline side, see below" if report.baseline_side else "not compared"
    apart = {*report.rerun_cases, *report.simulator_error_cases}
    return [
        ("Changed or new, compared against the baseline's code run on them", rerun),
        (
            f"Changed since the baseline ({why})",
            [c for c in report.changed_cases if c not in apart and c not in report.tier_changes],
        ),
        (
            "Demoted from the critical tier since the baseline",
            [c for c in report.changed_cases if c not in apart and c in report.tier_changes],
        ),
        (
            f"Added since the baseline ({why})",
            [c for c in report.new_cases if c not in apart],
        ),
    ]


TIER_ORDER = TIER_NAMES


def _not_run_sets(report: RegressionReport) -> list[tuple[str, list[str]]]:
    """Not-run cases grouped by their tier, each group labelled with it."""
    groups: dict[str, list[str]] = {}
    for case_id in report.not_run_cases:
        groups.setdefault(report.not_run_tiers.get(case_id, "unknown"), []).append(case_id)
    order = sorted(groups, key=lambda t: (*TIER_ORDER, t).index(t))
    out = []
    for tier in order:
        label = f"Not run, {tier} tier"
        if any(c in report.missing_cases for c in groups[tier]):
            how = "blocks" if "critical_missing" in report.blocking_rules else "warns"
            label += f" ({how}: critical_missing)"
        out.append((label, groups[tier]))
    return out


def _rule_line(report: RegressionReport) -> str:
    warn = [r for r in RULES if r not in report.blocking_rules]
    return (
        f"Rules that block: {', '.join(report.blocking_rules) or 'none'}; that warn: "
        f"{', '.join(warn) or 'none'}"
    )


def _reason_rows(report: RegressionReport, code: bool) -> list[list[str]]:
    return [
        [
            r.rule,
            (f"`{r.case_id}`" if code else r.case_id) if r.case_id else "—",
            r.message,
            SEVERITY_WORDS[r.severity],
        ]
        for r in report.reasons
    ]


def _why_rows(report: RegressionReport) -> list[list[str]]:
    rows = []
    for r in report.reasons:
        if r.case_id is None or r.rule == "critical_missing":
            continue
        rows.append(
            [
                f"`{r.case_id}`",
                r.rule,
                KIND_WORDS.get(r.kind or "", "—"),
                r.check or "—",
                SEVERITY_WORDS[r.severity],
            ]
        )
    return rows


# -- the regression section ------------------------------------------------------------------
def regression_verdict(report: RegressionReport) -> str:
    """``REGRESSION DETECTED`` or ``ALL CLEAR``."""
    return "REGRESSION DETECTED" if report.regressed else "ALL CLEAR"


SECTION_TITLE = "Regression rules, case by case"


def section_finding(report: RegressionReport) -> str:
    """What the rules found, as a section of a larger report (whose headline is the verdict):
    ``REGRESSION DETECTED`` or ``no regression``, never a second ``ALL CLEAR``."""
    return "REGRESSION DETECTED" if report.regressed else "no regression"


def regression_markdown(report: RegressionReport, level: int = 2, section: bool = False) -> str:
    """The regression verdict, figures, rules that fired, why cases broke, case sets.

    ``section``: part of a gate report, headed by what the rules found (the gate's own
    headline is the one verdict).
    """
    h = "#" * level
    icon = "❌" if report.regressed else "✅"
    title = (
        f"{h} {SECTION_TITLE}: {section_finding(report)}"
        if section
        else f"{h} {icon} {regression_verdict(report)}"
    )
    parts = [
        title,
        "",
        f"Candidate `{report.candidate}` against baseline `{report.baseline}`, case by "
        f"case (max drop {report.max_drop:.3f}).",
        "",
        md_table(_headers(report), _figures(report)),
    ]
    if report.reasons:
        parts += [
            "",
            f"{h}# Rules that fired",
            "",
            md_table(["Rule", "Case", "Message", "Severity"], _reason_rows(report, True)),
        ]
    why = _why_rows(report)
    if why:
        parts += [
            "",
            f"{h}# Why cases broke",
            "",
            md_table(["Case", "Rule", "Kind", "Failing check", "Severity"], why),
        ]
    parts += ["", *[f"- {line}" for line in _case_sets(report, code=True)]]
    parts.append(f"- {_rule_line(report)}")
    if report.power is not None:
        parts += [f"- Undecided: {report.power.message}"]
    parts += [f"- Note: {note}" for note in report.notes]
    return "\n".join(parts) + "\n"


def regression_text(report: RegressionReport, section: bool = False) -> str:
    """The regression verdict as plain text, one rule per line (``section``: as part of a
    gate report, see :func:`regression_markdown`)."""
    rule = "=" * 60
    title = (
        f"  {SECTION_TITLE.lower()}: {section_finding(report)}"
        if section
        else f"  REGRESSION REPORT — {regression_verdict(report)}"
    )
    parts = [
        rule,
        title,
        f"  {report.candidate} vs baseline {report.baseline}",
        rule,
        text_table(_headers(report), _figures(report)),
    ]
    if report.reasons:
        parts += ["", "Rules that fired:"]
        parts += [
            f"  [{r.rule}] ({SEVERITY_WORDS[r.severity]}) {r.message}" for r in report.reasons
        ]
    parts += ["", *_case_sets(report, code=False), _rule_line(report)]
    if report.power is not None:
        parts.append(f"Undecided: {report.power.message}")
    parts += [f"Note: {note}" for note in report.notes]
    parts.append(rule)
    return "\n".join(parts) + "\n"

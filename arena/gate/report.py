"""The gate's verdict and its reports: one Markdown page (a PR comment or a CI step summary),
plain text for the terminal, and JSON (the :class:`GateReport` itself).

Sections: the verdict with every reason it failed; where the run came from (commit, branch, CI
run, dataset); the golden scores case by case (suite score with its paired-bootstrap
interval, pass rate, which cases were compared and which were not and why); every rule that
fired with its severity; the broken cases with why they broke; cases flaky in the baseline;
absolute and cost limits; the pairwise judge's verdict (with a power estimate when
inconclusive); notes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.defaults import TIER_NAMES
from arena.gate.classify import KIND_WORDS
from arena.gate.limits import LimitCheck
from arena.gate.regression import RegressionReport
from arena.gate.rule_config import RULES
from arena.reports.format import pct, text_table
from arena.reports.markdown import md_table

EXIT_PASS, EXIT_FAIL = 0, 1
SEVERITY_WORDS = {"block": "blocks", "warn": "warning", "flaky": "flaky (not blocking)"}


class GateReport(BaseModel):
    """Everything the gate decided, and why."""

    model_config = ConfigDict(extra="forbid")

    passed: bool
    command: Literal["gate", "check"] = "gate"
    baseline: str
    candidate: str
    failures: list[str] = Field(default_factory=list, description="Why the gate failed.")
    run_id: int | None = None
    dataset: str = ""
    settings: dict[str, Any] = Field(default_factory=dict, description="Tier, repeats, judge.")
    provenance: dict[str, str] = Field(default_factory=dict)
    regression: RegressionReport | None = None
    limits: list[LimitCheck] = Field(default_factory=list)
    compare: dict[str, Any] | None = Field(None, description="arena.compare.CompareReport.")
    notes: list[str] = Field(default_factory=list)
    version_changes: list[str] = Field(
        default_factory=list,
        description="What changed in the candidate since the baseline's version: its "
        "configuration, agent code (file by file), tools and models.",
    )

    @property
    def exit_code(self) -> int:
        """0 when the gate passed, 1 when it failed."""
        return EXIT_PASS if self.passed else EXIT_FAIL


def decide(
    regression: RegressionReport | None,
    limits: list[LimitCheck],
    compare: dict[str, Any] | None,
    fail_on: list[str],
) -> list[str]:
    """The reasons the gate fails (empty: it passes)."""
    failures = []
    if regression is not None:
        failures += [f"[{r.rule}] {r.message}" for r in regression.blocking]
    failures += [f"[{c.name}] {c.message}" for c in limits if not c.passed]
    if compare is not None and compare["verdict"] in fail_on:
        failures.append(f"[compare] {compare['summary']}")
    return failures


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


FIGURE_HEADERS = ["Figure", "Baseline", "Candidate", "Delta", "95% interval"]


def _case_sets(report: RegressionReport, code: bool) -> list[str]:
    def ids(cases: list[str]) -> str:
        return ", ".join(f"`{c}`" if code else c for c in cases) or "none"

    counted = len(report.compared_cases) - len(report.pending_cases)
    lines = [
        f"Compared (same id and content): {len(report.compared_cases)} cases ({counted} counted)",
        f"Broken (pass -> fail): {ids(report.broken_cases)}",
        f"Fixed (fail -> pass): {ids(report.fixed_cases)}",
    ]
    for label, cases in (
        ("Flaky in the baseline", report.flaky_cases),
        *_not_run_sets(report),
        ("Changed since the baseline (not compared)", report.changed_cases),
        ("Added since the baseline (not compared)", report.new_cases),
        ("Removed from the dataset (not compared)", report.removed_cases),
    ):
        if cases:
            lines.append(f"{label}: {ids(cases)}")
    return lines


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


def _limit_rows(limits: list[LimitCheck]) -> list[list[str]]:
    return [[c.name, c.scope, c.message, "ok" if c.passed else "FAILS"] for c in limits]


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
        md_table(FIGURE_HEADERS, _figures(report)),
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
        text_table(FIGURE_HEADERS, _figures(report)),
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


# -- the whole gate --------------------------------------------------------------------------
def _provenance(report: GateReport) -> str:
    p = report.provenance
    bits = []
    if p.get("commit"):
        bits.append(f"commit `{p['commit'][:12]}`")
    if p.get("branch"):
        bits.append(f"branch `{p['branch']}`")
    if p.get("ci_url"):
        bits.append(f"[CI run]({p['ci_url']})")
    where = ", ".join(bits) or "no git or CI information"
    run = f"run {report.run_id}" if report.run_id is not None else "stored results"
    settings = ", ".join(f"{k} {v}" for k, v in report.settings.items())
    return f"{run} ({where}); dataset {report.dataset}" + (f"; {settings}" if settings else "")


def _compare_lines(compare: dict[str, Any]) -> list[str]:
    lines = [compare["summary"], ""]
    lines += [f"- {reason}" for reason in compare["reasons"]]
    return lines


def gate_markdown(report: GateReport) -> str:
    """The gate as one Markdown page."""
    icon, word = ("✅", "passed") if report.passed else ("❌", "FAILED")
    parts = [
        f"## {icon} arena {report.command} {word}: `{report.candidate}` vs `{report.baseline}`",
        "",
        _provenance(report),
        "",
    ]
    if report.failures:
        parts += ["**Why it failed:**", "", *[f"- {f}" for f in report.failures], ""]
    if report.version_changes:
        parts += ["**What changed in the candidate:**", ""]
        parts += [f"- {c}" for c in report.version_changes] + [""]
    if report.regression is not None:
        parts += [regression_markdown(report.regression, level=3, section=True)]
    if report.limits:
        parts += [
            "### Limits",
            "",
            md_table(["Limit", "Scope", "Measured", "Result"], _limit_rows(report.limits)),
            "",
        ]
    if report.compare is not None:
        parts += [
            f"### Pairwise judge: **{report.compare['verdict']}**",
            "",
            *_compare_lines(report.compare),
            "",
        ]
    if report.notes:
        parts += ["### Notes", "", *[f"- {n}" for n in report.notes], ""]
    return "\n".join(parts).rstrip() + "\n"


def gate_text(report: GateReport) -> str:
    """The gate as plain text for the terminal."""
    word = "passed" if report.passed else "FAILED"
    parts = [
        f"arena {report.command} {word}: {report.candidate} vs {report.baseline}",
        _provenance(report).replace("`", ""),
    ]
    if report.failures:
        parts += ["", "why it failed:", *[f"  - {f}" for f in report.failures]]
    if report.version_changes:
        parts += ["", "what changed in the candidate:"]
        parts += [f"  - {c}" for c in report.version_changes]
    if report.regression is not None:
        parts += ["", regression_text(report.regression, section=True).rstrip()]
    if report.limits:
        parts += [
            "",
            "limits",
            text_table(["limit", "scope", "measured", "result"], _limit_rows(report.limits)),
        ]
    if report.compare is not None:
        parts += [
            "",
            f"pairwise judge: {report.compare['verdict']}",
            *[f"  {line}" for line in _compare_lines(report.compare) if line],
        ]
    parts += [f"note: {n}" for n in report.notes]
    return "\n".join(parts) + "\n"

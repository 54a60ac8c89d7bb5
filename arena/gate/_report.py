"""The gate's verdict and its reports: one Markdown page (a PR comment or a CI step summary),
plain text for the terminal, and JSON (the :class:`GateReport` itself).

Sections, in order (:data:`MARKDOWN_SECTIONS`): the verdict with every reason it failed;
where the run came from (commit, branch, CI run, dataset); the candidate's errors, each
traceback fenced and trimmed to the frames in your files; the golden scores case by case
(:mod:`arena.gate._regression_report`); absolute and cost limits; the pairwise judge's verdict;
notes. On bad input (exit 2) the report is what was wrong and where, and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.errors import InputError
from arena.gate._crashes import Crash, crashes_markdown, crashes_text
from arena.gate._limits import LimitCheck
from arena.gate._policy import verdict_words
from arena.gate._regression import RegressionReason, RegressionReport
from arena.gate._regression_report import regression_markdown, regression_text
from arena.reports._format import one_line, text_table
from arena.reports._markdown import md_code, md_link, md_table

EXIT_PASS, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2
BAD_INPUT_FIELDS = {"passed", "command", "baseline", "candidate", "bad_input"}


class BadInput(BaseModel):
    """What was wrong with the gate's input, and where (an :class:`InputError`)."""

    model_config = ConfigDict(extra="forbid")

    message: str
    file: str | None = None
    variant: str | None = Field(
        None, exclude_if=lambda v: v is None, description="The variant at fault (never a case)."
    )
    case: str | None = None
    field: str | None = None

    @classmethod
    def of(cls, exc: InputError) -> BadInput:
        """The error's message, file, variant or case, and field."""
        return cls(
            message=exc.message,
            file=exc.file,
            variant=exc.variant,
            case=exc.case,
            field=exc.field,
        )

    def where(self) -> list[tuple[str, str]]:
        """(label, value) of the file, variant, case and field that are known."""
        found = (
            ("File", self.file),
            ("Variant", self.variant),
            ("Case", self.case),
            ("Field", self.field),
        )
        return [(label, value) for label, value in found if value]


class GateReport(BaseModel):
    """Everything the gate decided, and why."""

    model_config = ConfigDict(extra="forbid")

    passed: bool
    command: Literal["gate", "check"] = "gate"
    baseline: str
    candidate: str
    failures: list[str] = Field(default_factory=list, description="Why the gate failed.")
    bad_input: BadInput | None = Field(None, description="Set when the gate exits 2.")
    run_id: int | None = None
    dataset: str = ""
    settings: dict[str, Any] = Field(default_factory=dict, description="Tier, repeats, judge.")
    provenance: dict[str, str] = Field(default_factory=dict)
    crashes: list[Crash] = Field(
        default_factory=list, description="The candidate's answers that ended in an error."
    )
    regression: RegressionReport | None = None
    limits: list[LimitCheck] = Field(default_factory=list)
    compare: dict[str, Any] | None = Field(
        None, description="arena.compare._compare.CompareReport."
    )
    notes: list[str] = Field(default_factory=list)
    blocking_rules: list[str] | None = Field(
        None, description="The regression rules that block (None: no baseline compared)."
    )
    would_block: list[RegressionReason] = Field(
        default_factory=list,
        description="Findings the default blocking rules would have blocked on, when "
        "rules.block leaves some out: the verdict line names them.",
    )
    version_changes: list[str] = Field(
        default_factory=list,
        description="What changed in the candidate since the baseline's version: its "
        "configuration, agent code (file by file), tools and models.",
    )
    route_changes: list[str] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        description="Cases whose route through the agent's LangGraph graph changed since "
        "the baseline ('S-1: route changed: router -> support became router -> decline').",
    )

    @property
    def verdict(self) -> str:
        """``passed``, ``FAILED``, or ``passed (no rule blocks: ...)`` (arena.gate._policy)."""
        return verdict_words(self.passed, self.blocking_rules, self.would_block)

    @property
    def exit_code(self) -> int:
        """0 when the gate passed, 1 when it failed, 2 on bad input."""
        if self.bad_input is not None:
            return EXIT_BAD_INPUT
        return EXIT_PASS if self.passed else EXIT_FAIL

    def to_json(self) -> str:
        """``gate.json``: the whole report; on bad input, what was wrong and nothing else."""
        if self.bad_input is None:
            return self.model_dump_json(indent=2)
        return self.model_dump_json(indent=2, include=BAD_INPUT_FIELDS)


def bad_input_report(
    exc: InputError,
    command: Literal["gate", "check"] = "gate",
    baseline: str = "",
    candidate: str = "",
) -> GateReport:
    """The report of a gate that refused its input (exit 2)."""
    return GateReport(
        passed=False,
        command=command,
        baseline=baseline,
        candidate=candidate,
        bad_input=BadInput.of(exc),
    )


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


def _limit_rows(limits: list[LimitCheck]) -> list[list[str]]:
    return [[c.name, c.scope, c.message, "ok" if c.passed else "FAILS"] for c in limits]


def md_line(text: str) -> str:
    """Text as one line of a Markdown list item: newlines folded, HTML tags kept as text."""
    return one_line(text).replace("<", "&lt;")


def _provenance(report: GateReport) -> str:
    p = report.provenance
    bits = []
    if p.get("commit"):
        bits.append(f"commit `{p['commit'][:12]}`")
    if p.get("dirty") == "true":
        bits.append("with uncommitted changes")
    if p.get("branch"):
        bits.append(f"branch `{p['branch']}`")
    if p.get("ci_url"):
        bits.append(md_link("CI run", p["ci_url"]))
    where = ", ".join(bits) or "no git or CI information"
    run = f"run {report.run_id}" if report.run_id is not None else "stored results"
    settings = ", ".join(f"{k} {v}" for k, v in report.settings.items())
    return f"{run} ({where}); dataset {report.dataset}" + (f"; {settings}" if settings else "")


def _compare_lines(compare: dict[str, Any]) -> list[str]:
    lines = [compare["summary"], ""]
    lines += [f"- {reason}" for reason in compare["reasons"]]
    return lines


# -- Markdown ---------------------------------------------------------------------------------
def _md_headline(report: GateReport) -> list[str]:
    word = report.verdict
    icon = "❌" if not report.passed else "✅" if word == "passed" else "⚠️"
    return [
        f"## {icon} arena {report.command} {md_line(word)}: `{report.candidate}` vs "
        f"`{report.baseline}`",
        "",
        _provenance(report),
    ]


def _md_failures(report: GateReport) -> list[str]:
    if not report.failures:
        return []
    return ["**Why it failed:**", "", *[f"- {md_line(f)}" for f in report.failures]]


def _md_version_changes(report: GateReport) -> list[str]:
    if not report.version_changes:
        return []
    lines = [f"- {md_line(c)}" for c in report.version_changes]
    return ["### What changed in the candidate since the baseline", "", *lines]


def _md_route_changes(report: GateReport) -> list[str]:
    if not report.route_changes:
        return []
    lines = [f"- {md_line(c)}" for c in report.route_changes]
    return ["### Route changes since the baseline", "", *lines]


def _md_crashes(report: GateReport) -> list[str]:
    return [crashes_markdown(report.crashes)] if report.crashes else []


def _md_regression(report: GateReport) -> list[str]:
    if report.regression is None:
        return []
    return [regression_markdown(report.regression, level=3, section=True)]


def _md_limits(report: GateReport) -> list[str]:
    if not report.limits:
        return []
    headers = ["Limit", "Scope", "Measured", "Result"]
    return ["### Limits", "", md_table(headers, _limit_rows(report.limits))]


def _compare_title(report: GateReport) -> str:
    """What decided the comparison: the pairwise judge, or (sequential with ``--judge none``)
    the golden scores case by case."""
    if report.settings.get("judge") == "none":
        return "golden scores, case by case"
    return "pairwise judge"


def _md_compare(report: GateReport) -> list[str]:
    if report.compare is None:
        return []
    return [
        f"### {_compare_title(report).capitalize()}: **{report.compare['verdict']}**",
        "",
        *_compare_lines(report.compare),
    ]


def _md_notes(report: GateReport) -> list[str]:
    return ["### Notes", "", *[f"- {md_line(n)}" for n in report.notes]] if report.notes else []


MARKDOWN_SECTIONS: tuple[Callable[[GateReport], list[str]], ...] = (
    _md_headline,
    _md_failures,
    _md_version_changes,
    _md_route_changes,
    _md_crashes,
    _md_regression,
    _md_limits,
    _md_compare,
    _md_notes,
)
"""The gate report's sections in order; each gives its lines, or none to be left out."""


def bad_input_markdown(bad: BadInput, command: str = "gate") -> str:
    """What was wrong with the input, where, and nothing else."""
    parts = [
        f"## ⛔ arena {command}: bad input (exit 2)",
        "",
        f"The {command} refused its input: {md_line(bad.message)}",
    ]
    where = bad.where()
    if where:
        parts += ["", *[f"- {label}: {md_code(value)}" for label, value in where]]
    return "\n".join(parts) + "\n"


def gate_markdown(report: GateReport) -> str:
    """The gate as one Markdown page."""
    if report.bad_input is not None:
        return bad_input_markdown(report.bad_input, report.command)
    parts: list[str] = []
    for section in MARKDOWN_SECTIONS:
        lines = section(report)
        if lines:
            parts += [*lines, ""]
    return "\n".join(part.rstrip("\n") for part in parts).rstrip() + "\n"


# -- plain text -------------------------------------------------------------------------------
def gate_text(report: GateReport) -> str:
    """The gate as plain text for the terminal."""
    if report.bad_input is not None:
        where = ", ".join(f"{label.lower()} {value}" for label, value in report.bad_input.where())
        return (
            f"arena {report.command}: bad input (exit 2): {report.bad_input.message}"
            + (f" ({where})" if where else "")
            + "\n"
        )
    word = report.verdict
    parts = [
        f"arena {report.command} {word}: {report.candidate} vs {report.baseline}",
        _provenance(report).replace("`", ""),
    ]
    if report.failures:
        parts += ["", "why it failed:", *[f"  - {one_line(f)}" for f in report.failures]]
    if report.version_changes:
        parts += ["", "what changed in the candidate:"]
        parts += [f"  - {c}" for c in report.version_changes]
    if report.route_changes:
        parts += ["", "route changes since the baseline:"]
        parts += [f"  - {one_line(c)}" for c in report.route_changes]
    if report.crashes:
        parts += ["", "errors in the candidate's answers:", *crashes_text(report.crashes)]
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
            f"{_compare_title(report)}: {report.compare['verdict']}",
            *[f"  {line}" for line in _compare_lines(report.compare) if line],
        ]
    parts += [f"note: {n}" for n in report.notes]
    return "\n".join(parts) + "\n"

"""What a mutation pass found: each mutant killed or survived, the score, and the report
(``--json``, ``mutate.md``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from arena.display import percent


class MutantResult(BaseModel):
    """One mutant's verdict.

    The first six fields are the documented JSON shape (``id``, ``operator``, ``target``,
    ``killed``, ``killed_by``, ``why_survived``); the others say how it was reached.
    """

    id: str = Field(description="``operator:target``.")
    operator: str
    target: str
    killed: bool
    killed_by: list[str] = Field(
        default_factory=list,
        description="The cases that killed it: passed by the original, failed by the mutant, "
        "or named by a finding of the gate's rules.",
    )
    why_survived: str | None = Field(None, description="Why no case failed (survivors only).")
    equivalent: bool = Field(
        False, description="It behaved exactly as the original on every case it ran."
    )
    blocked_by: list[str] = Field(
        default_factory=list, description="The gate's blocking findings (``rule case``)."
    )
    cases_run: list[str] = Field(default_factory=list, description="The cases it ran, in order.")
    model_calls: int = Field(0, description="Model calls actually sent (0: all cached).")
    variant: str = Field("", description="The mutant's variant name in the database.")
    proposal: dict[str, Any] | None = Field(
        None,
        description="For a survivor: `edits` of the cases that exercise it ({case, field, "
        "add}), or a pending `case` to write for a tool no case calls; null when no edit "
        "would kill it.",
    )
    errored: bool = Field(
        False,
        description="No verdict: its runs failed in the model (it could not be started or "
        "reached, timed out, refused the key), not the agent, or its wrapper could not call "
        "the tool to inject its fault; left out of the score.",
    )
    error: str | None = Field(None, description="Why it errored, on one line (errored only).")
    errored_cases: list[str] = Field(
        default_factory=list, description="The cases whose runs failed in the model."
    )

    @property
    def verdict(self) -> str:
        """``killed``, ``equivalent``, ``errored`` or ``survived``."""
        if self.killed:
            return "killed"
        return "equivalent" if self.equivalent else "errored" if self.errored else "survived"


class MutationReport(BaseModel):
    """A mutation pass of one variant on a golden set."""

    score: float = Field(
        description="killed / (mutants - equivalent - errored); 1.0 when none count."
    )
    mutants: list[MutantResult]
    variant: str = ""
    dataset: str = ""
    original_run_id: int | None = None
    original_passed: list[str] = Field(
        default_factory=list, description="The cases the original passes (the only ones run)."
    )
    model_calls: int = Field(0, description="Model calls sent by the whole pass.")
    full: bool = Field(False, description="Every case ran (no stop at the first kill).")

    @property
    def killed(self) -> list[MutantResult]:
        """The killed mutants."""
        return [m for m in self.mutants if m.killed]

    @property
    def survivors(self) -> list[MutantResult]:
        """The mutants no case killed, equivalent and errored ones excluded."""
        return [m for m in self.mutants if m.verdict == "survived"]

    @property
    def errored(self) -> list[MutantResult]:
        """The mutants whose runs failed in the model: no verdict, not counted."""
        return [m for m in self.mutants if m.errored]

    @property
    def counted(self) -> int:
        """The mutants the score counts: neither equivalent nor errored."""
        return len(self.mutants) - len(self.equivalent) - len(self.errored)

    @property
    def equivalent(self) -> list[MutantResult]:
        """The mutants that behaved exactly as the original."""
        return [m for m in self.mutants if m.equivalent]

    def passes(self, min_score: float | None) -> bool:
        """The score is at least ``min_score`` (always, without one)."""
        return min_score is None or self.score >= min_score

    def as_json(self, min_score: float | None = None) -> dict[str, Any]:
        """The ``--json`` document: ``score`` and ``mutants`` first, as the docs give them, then
        the mutants ``counted`` and ``errored``, ``min_score``, whether the score ``passed``
        it, and the ``error`` that makes the score say nothing (:func:`unfounded_score`), if any."""
        reason = unfounded_score(self, min_score)
        return {
            "score": self.score,
            **self.model_dump(mode="json", exclude={"score"}),
            "counted": self.counted,
            "errored": [m.id for m in self.errored],
            "min_score": min_score,
            "passed": reason is None and self.passes(min_score),
            "error": reason,
        }


def mutation_score(mutants: list[MutantResult]) -> float:
    """killed / (mutants - equivalent - errored), 1.0 when no mutant counts."""
    counted = [m for m in mutants if not m.equivalent and not m.errored]
    if not counted:
        return 1.0
    return sum(m.killed for m in counted) / len(counted)


def errored_cause(operator: str, spec: str, error: str) -> str:
    """Why a mutant errored, on one line: its model, what the failure said, and what to do
    (``local:qwen2.5-coder-0.5b could not be reached or started: ModuleNotFoundError: No
    module named 'xllamacpp' (install agent-arena[local] or pass --weaker-model)``)."""
    from arena.models import model_failure_reason

    reason = model_failure_reason(error)
    hints = ["install agent-arena[local]"] if "xllamacpp" in reason else []
    if operator == "model_weaker":
        hints.append("pass --weaker-model with a model you can reach")
    hint = f" ({' or '.join(hints)})" if hints else ""
    return f"{spec} could not be reached or started: {reason}{hint}"


def not_injected_cause(error: str) -> str:
    """Why a mutant whose wrapper could not call its tool errored, on one line (the wrapper's
    message, without the tool node's framing)."""
    start = error.find("the mutant's wrapper")
    reason = error[start:] if start >= 0 else error
    reason = reason.split("\n", 1)[0].rstrip("')\" ")
    return f"its fault was never injected: {reason}"


def unfounded_score(report: MutationReport, min_score: float | None) -> str | None:
    """Why the score says nothing (``arena mutate`` exits 2), or None: every mutant it would
    count errored; or ``min_score`` is asked and some mutant errored (each named, with its
    cause) or no mutant counts at all."""
    causes = "; ".join(f"{m.id}: {m.error}" for m in report.errored)
    failed = (
        "their runs failed in the model, not the agent, or their fault could not be injected, "
        "so they have no verdict"
    )
    if report.errored and not report.counted:
        return f"every mutant errored ({failed}): {causes}"
    if min_score is None:
        return None
    if report.errored:
        return (
            f"{len(report.errored)} of {len(report.mutants)} mutants errored ({failed}), so "
            f"the score cannot be held to a minimum: {causes}"
        )
    if not report.counted:
        return (
            f"no mutant counts ({len(report.mutants)} mutants, {len(report.equivalent)} "
            "equivalent): the score says nothing about the golden set; choose operators "
            "that make mutants it can kill (arena mutate --plan lists them)"
        )
    return None


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def mutation_markdown(report: MutationReport) -> str:
    """``mutate.md``: the score, every mutant, then each survivor with why and a proposal."""
    counted = report.counted
    errored = f", {len(report.errored)} errored (excluded)" if report.errored else ""
    lines = [
        f"# Mutation score: {percent(report.score)} ({len(report.killed)} of {counted} mutants "
        "killed)",
        "",
        f"Variant `{report.variant}` on {report.dataset}: {len(report.mutants)} mutants, "
        f"{len(report.equivalent)} equivalent (excluded){errored}, {report.model_calls} "
        "model calls sent"
        f"{'' if report.full else '; each mutant stopped at its first kill'}.",
        "",
        "| mutant | killed | killed by | the gate would block | why it survived |",
        "|---|---|---|---|---|",
    ]
    for m in report.mutants:
        state = {"killed": "yes", "survived": "**no**"}.get(m.verdict, m.verdict)
        lines.append(
            f"| `{m.id}` | {state} | {_cell(', '.join(m.killed_by)) or '-'} | "
            f"{_cell(', '.join(m.blocked_by)) or '-'} | "
            f"{_cell(m.why_survived or m.error or '-')} |"
        )
    if report.errored:
        lines += ["", "## Errored: no verdict, not counted", ""]
        lines += [f"- `{m.id}` ({', '.join(m.errored_cases)}): {m.error}" for m in report.errored]
    if report.survivors:
        lines += ["", "## Survivors: what to add", ""]
    for m in report.survivors:
        lines += [f"### `{m.id}`", "", m.why_survived or "", ""]
        lines += _proposal_lines(m.proposal or {})
    return "\n".join(lines).rstrip() + "\n"


def _proposal_lines(proposal: dict[str, Any]) -> list[str]:
    where = f" of `{proposal['dataset']}`" if proposal.get("dataset") else ""
    lines = [
        f"- case {e['case']}{where}: add `{e['add']}` to `{e['field']}`"
        for e in proposal.get("edits", [])
    ]
    if lines:
        lines = ["Edit the cases that exercise it:", "", *lines, ""]
    if proposal.get("case"):
        lines += ["A pending case to write (no case calls the tool yet):", ""]
        lines += ["```json", _json(proposal["case"]), "```", ""]
    return lines


def _json(value: Any) -> str:
    import json

    return json.dumps(value, indent=2, ensure_ascii=False)

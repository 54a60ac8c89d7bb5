"""When did a case start failing? Its pass and score in every stored run, per variant.

For each variant the history walks the runs oldest first; when the case fails in the newest
run, the current failing streak started at ``first_fail`` and the last run before it where
the case passed is ``last_pass`` (None when it never passed). Each point carries the run's
git commit, branch and CI run URL when they were recorded, and the case's content hash, so an
edited case shows up as such.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from arena.scoring import RULES_VERSION
from arena.scoring.checks._reasons import FailReason
from arena.storage import Store


class HistoryPoint(BaseModel):
    """One case of one variant in one run."""

    model_config = ConfigDict(extra="forbid")

    run_id: int
    created_at: datetime
    variant: str
    variant_hash: str
    case_hash: str = ""
    n: int
    passes: int
    passed: bool
    score: float
    fail_reasons: list[FailReason] = Field(default_factory=list)
    provenance: dict[str, str] = Field(default_factory=dict)
    rules_version: int = RULES_VERSION
    """The scoring rules of this point's grade (older only for a model grader's stored grade;
    older keyword grades are re-scored from the stored result)."""
    rules_note: str | None = None
    """Why this point's grade is not a current stored one (re-scored, or older rules)."""


class VariantHistory(BaseModel):
    """A variant's points and, if it now fails, when that started."""

    model_config = ConfigDict(extra="forbid")

    variant: str
    points: list[HistoryPoint]
    failing: bool
    last_pass: HistoryPoint | None = None
    first_fail: HistoryPoint | None = None
    summary: str


class CaseHistory(BaseModel):
    """The history of one case across every stored run that holds it."""

    model_config = ConfigDict(extra="forbid")

    case_id: str
    variants: list[VariantHistory]


def _where(point: HistoryPoint) -> str:
    bits = [f"run {point.run_id}", point.created_at.strftime("%Y-%m-%d %H:%M")]
    if point.provenance.get("commit"):
        bits.append(f"commit {point.provenance['commit'][:10]}")
    if point.provenance.get("branch"):
        bits.append(f"branch {point.provenance['branch']}")
    return ", ".join(bits)


def summarise(variant: str, points: list[HistoryPoint]) -> VariantHistory:
    """Find the current failing streak of one variant's points (oldest first)."""
    latest = points[-1]
    if latest.passed:
        return VariantHistory(
            variant=variant,
            points=points,
            failing=False,
            summary=f"{variant}: passes in the latest run ({_where(latest)})",
        )
    start = len(points) - 1
    while start > 0 and not points[start - 1].passed:
        start -= 1
    first_fail = points[start]
    last_pass = points[start - 1] if start > 0 else None
    if last_pass is None:
        text = f"{variant}: fails in every run, since {_where(first_fail)}"
    else:
        text = (
            f"{variant}: last passed in {_where(last_pass)}; first failed in {_where(first_fail)}"
        )
    older = sorted({p.run_id for p in points if p.rules_version < RULES_VERSION})
    if older:  # never compared as if equal: say which grades are older, and the command
        runs = ", ".join(map(str, older))
        text += (
            f" (run(s) {runs} graded by older rules: run `arena score RUN` for each, "
            "then look again)"
        )
    return VariantHistory(
        variant=variant,
        points=points,
        failing=True,
        last_pass=last_pass,
        first_fail=first_fail,
        summary=text,
    )


def case_history(store: Store, case_id: str, variant: str | None = None) -> CaseHistory:
    """Every stored run holding ``case_id`` (for ``variant``, or every variant)."""
    from arena.errors import InputError
    from arena.evaluation.run_scores import load_run_scores
    from arena.scoring._repeats import group_by_case

    by_variant: dict[str, list[HistoryPoint]] = {}
    for info in reversed(store.runs()):  # oldest first
        if case_id not in info.config.get("cases", []):
            continue
        if variant is not None and variant not in info.config.get("variants", {}):
            continue
        scores = load_run_scores(store, info.id)
        hashes = {(r.variant, r.case_id): r.case_hash for r in store.results(info.id)}
        for name in info.config.get("variants", {}):
            if variant is not None and name != variant:
                continue
            mine = [c for c in scores.cases if c.variant == name and c.case_id == case_id]
            summary = group_by_case(mine)  # none when every repeat was a simulator error
            if not summary:
                continue
            [case] = summary
            by_variant.setdefault(name, []).append(
                HistoryPoint(
                    run_id=info.id,
                    created_at=info.created_at,
                    variant=name,
                    variant_hash=mine[0].variant_hash,
                    case_hash=hashes.get((name, case_id), ""),
                    n=case.n,
                    passes=case.passes,
                    passed=case.passed,
                    score=case.score_mean,
                    fail_reasons=case.fail_reasons,
                    provenance=dict(info.config.get("provenance") or {}),
                    rules_version=scores.rules_version,
                    rules_note=scores.rules_note(),
                )
            )
    if not by_variant:
        who = f" for variant {variant!r}" if variant else ""
        raise InputError(f"case {case_id!r} is in no stored run{who}", field="case")
    return CaseHistory(
        case_id=case_id, variants=[summarise(name, points) for name, points in by_variant.items()]
    )

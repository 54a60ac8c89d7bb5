"""Baselines and the regression gate.

A case *passes* when a strict majority of its repeats pass (``arena.scoring.repeats``).
Rules, each of which alone makes ``RegressionReport.regressed`` true:

==================== ===================================================================
rule                 fires when
==================== ===================================================================
``suite_drop``       baseline suite score - candidate suite score > ``max_drop`` (0.05)
``critical_broken``  a critical case passed in the baseline and fails in the candidate
``critical_missing`` a critical case that passed in the baseline was not run
``category_broken``  every counted case of a category fails in the candidate while the
                     baseline passed at least one counted case of that category
``happy_path_fail``  a counted happy_path case fails in the candidate
==================== ===================================================================

Pending-tier cases never trigger a rule. ``should_update_baseline`` only lets a baseline
move up (new suite score >= old) unless forced.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from arena.golden.models import Category, Tier
from arena.records import utcnow
from arena.scoring.aggregate import VariantScores
from arena.scoring.combined import CaseScore
from arena.scoring.repeats import group_by_case

MAX_DROP = 0.05
"""Default largest tolerated drop of the suite score."""


class Baseline(BaseModel):
    """The reference a candidate is gated against."""

    model_config = ConfigDict(extra="forbid")

    name: str
    variant: str
    variant_hash: str
    dataset: str
    suite_score: float
    pass_rate: float
    case_pass: dict[str, bool]
    case_category: dict[str, str]
    case_tier: dict[str, str]
    created_at: datetime = Field(default_factory=utcnow)
    source_run_id: int | None = None


class RegressionReason(BaseModel):
    """One rule that fired."""

    model_config = ConfigDict(extra="forbid")

    rule: str
    message: str
    case_id: str | None = None


class RegressionReport(BaseModel):
    """The regression verdict of a candidate against a baseline."""

    model_config = ConfigDict(extra="forbid")

    baseline: str
    candidate: str
    regressed: bool
    reasons: list[RegressionReason] = Field(default_factory=list)
    baseline_score: float
    candidate_score: float
    suite_delta: float
    baseline_pass_rate: float = 0.0
    candidate_pass_rate: float = 0.0
    pass_rate_delta: float
    max_drop: float
    fixed_cases: list[str] = Field(default_factory=list)
    broken_cases: list[str] = Field(default_factory=list)
    missing_cases: list[str] = Field(default_factory=list)
    new_cases: list[str] = Field(default_factory=list)


def make_baseline(
    scores: VariantScores,
    case_scores: list[CaseScore],
    *,
    name: str,
    dataset: str,
    source_run_id: int | None = None,
    created_at: datetime | None = None,
) -> Baseline:
    """A baseline from a variant's aggregate and its case scores (majority of repeats)."""
    mine = [s for s in case_scores
            if s.variant == scores.variant and s.variant_hash == scores.variant_hash]
    cases = group_by_case(mine)
    return Baseline(
        name=name, variant=scores.variant, variant_hash=scores.variant_hash, dataset=dataset,
        suite_score=scores.mean_score, pass_rate=scores.pass_rate,
        case_pass={c.case_id: c.passed for c in cases},
        case_category={c.case_id: c.category for c in cases},
        case_tier={c.case_id: c.tier for c in cases},
        created_at=created_at or utcnow(), source_run_id=source_run_id,
    )


def baseline_to_json(baseline: Baseline) -> str:
    """The baseline as indented JSON text."""
    return baseline.model_dump_json(indent=2)


def baseline_from_json(text: str) -> Baseline:
    """A baseline read back from :func:`baseline_to_json` text."""
    return Baseline.model_validate_json(text)


def _category_rule(baseline: Baseline, current: dict[str, tuple[bool, str, str]]
                   ) -> list[RegressionReason]:
    reasons: list[RegressionReason] = []
    categories = sorted({category for _, category, _ in current.values()})
    for category in categories:
        now = [ok for ok, cat, tier in current.values() if cat == category and tier != Tier.PENDING]
        before = [baseline.case_pass[c] for c, cat in baseline.case_category.items()
                  if cat == category and baseline.case_tier.get(c) != Tier.PENDING
                  and c in baseline.case_pass]
        if now and not any(now) and any(before):
            reasons.append(RegressionReason(
                rule="category_broken",
                message=f"category {category}: all {len(now)} counted cases fail "
                        f"(baseline passed {sum(before)})"))
    return reasons


def _case_rules(baseline: Baseline, current: dict[str, tuple[bool, str, str]]
                ) -> list[RegressionReason]:
    reasons: list[RegressionReason] = []
    for case_id, (ok, category, tier) in current.items():
        if tier == Tier.PENDING or ok:
            continue
        if tier == Tier.CRITICAL and baseline.case_pass.get(case_id):
            reasons.append(RegressionReason(rule="critical_broken", case_id=case_id,
                                            message=f"critical case {case_id} passed in the "
                                                    "baseline and fails now"))
        if category == Category.HAPPY_PATH:
            reasons.append(RegressionReason(rule="happy_path_fail", case_id=case_id,
                                            message=f"happy-path case {case_id} fails"))
    for case_id, ok in baseline.case_pass.items():
        if ok and case_id not in current and baseline.case_tier.get(case_id) == Tier.CRITICAL:
            reasons.append(RegressionReason(rule="critical_missing", case_id=case_id,
                                            message=f"critical case {case_id} was not run"))
    return reasons


def check_regression(
    baseline: Baseline,
    candidate: VariantScores,
    candidate_cases: list[CaseScore],
    max_drop: float = MAX_DROP,
) -> RegressionReport:
    """Apply the regression rules (module docstring) to a candidate."""
    mine = [s for s in candidate_cases
            if s.variant == candidate.variant and s.variant_hash == candidate.variant_hash]
    current = {c.case_id: (c.passed, c.category, c.tier) for c in group_by_case(mine)}
    delta = candidate.mean_score - baseline.suite_score
    reasons: list[RegressionReason] = []
    if -delta > max_drop:
        reasons.append(RegressionReason(
            rule="suite_drop",
            message=f"suite score {baseline.suite_score:.3f} -> {candidate.mean_score:.3f} "
                    f"(drop {-delta:.3f} > {max_drop:.3f})"))
    reasons += _case_rules(baseline, current)
    reasons += _category_rule(baseline, current)
    shared = [c for c in current if c in baseline.case_pass]
    return RegressionReport(
        baseline=baseline.name, candidate=f"{candidate.variant}@{candidate.variant_hash}",
        regressed=bool(reasons), reasons=reasons, baseline_score=baseline.suite_score,
        candidate_score=candidate.mean_score, suite_delta=delta,
        baseline_pass_rate=baseline.pass_rate, candidate_pass_rate=candidate.pass_rate,
        pass_rate_delta=candidate.pass_rate - baseline.pass_rate, max_drop=max_drop,
        fixed_cases=[c for c in shared if current[c][0] and not baseline.case_pass[c]],
        broken_cases=[c for c in shared if not current[c][0] and baseline.case_pass[c]],
        missing_cases=sorted(set(baseline.case_pass) - set(current)),
        new_cases=[c for c in current if c not in baseline.case_pass],
    )


def should_update_baseline(old: Baseline | None, new: Baseline, force: bool = False) -> bool:
    """True when ``new`` may replace ``old``: no old one, forced, or not a lower score."""
    if old is None or force:
        return True
    return new.suite_score >= old.suite_score

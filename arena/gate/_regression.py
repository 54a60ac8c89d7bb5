"""The regression verdict of a candidate against a baseline, case by case: its records.

The rules, their defaults and which of them block are documented in ``arena.gate._rules``
(:func:`arena.gate._rules.check_regression` gives the verdict); the baseline records are in
:mod:`arena.scoring._baseline`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from arena.compare._power import PowerEstimate
from arena.gate._rule_config import MAX_DROP, Severity
from arena.scoring.checks._reasons import FailureKind

__all__ = ["MAX_DROP", "FailureKind", "RegressionReason", "RegressionReport", "Severity"]


class RegressionReason(BaseModel):
    """One rule that fired, on one case or on the suite."""

    model_config = ConfigDict(extra="forbid")

    rule: str
    message: str
    case_id: str | None = None
    severity: Severity = "block"
    kind: FailureKind | None = None
    check: str | None = Field(None, description="The failing check, in words.")


class RegressionReport(BaseModel):
    """The regression verdict of a candidate against a baseline, case by case."""

    model_config = ConfigDict(extra="forbid")

    baseline: str
    candidate: str
    regressed: bool
    reasons: list[RegressionReason] = Field(default_factory=list)
    baseline_score: float | None
    candidate_score: float | None
    suite_delta: float | None
    suite_delta_low: float | None = None
    suite_delta_high: float | None = None
    suite_delta_level: float = Field(
        0.95, description="The level of the suite-delta interval (1 - rules.alpha)."
    )
    baseline_pass_rate: float = 0.0
    candidate_pass_rate: float = 0.0
    pass_rate_delta: float
    max_drop: float
    blocking_rules: list[str] = Field(default_factory=list, description="The others warn.")
    would_block: list[RegressionReason] = Field(
        default_factory=list,
        description="What the default blocking rules would have blocked on and these rules "
        "do not (arena.gate._policy).",
    )
    compared_cases: list[str] = Field(default_factory=list)
    pending_cases: list[str] = Field(
        default_factory=list, description="Compared cases of the pending tier."
    )
    fixed_cases: list[str] = Field(default_factory=list)
    broken_cases: list[str] = Field(default_factory=list)
    flaky_cases: list[str] = Field(
        default_factory=list, description="Compared cases that were flaky in the baseline."
    )
    missing_cases: list[str] = Field(
        default_factory=list, description="In the candidate's dataset, not run."
    )
    new_cases: list[str] = Field(
        default_factory=list, description="Added: not in the baseline (see rerun_cases)."
    )
    removed_cases: list[str] = Field(
        default_factory=list, description="In the baseline, gone from the dataset."
    )
    changed_cases: list[str] = Field(
        default_factory=list,
        description="Same id, different content: compared only when the baseline's code ran "
        "on the new content (rerun_cases).",
    )
    rerun_cases: list[str] = Field(
        default_factory=list,
        description="Changed and new cases compared against the baseline's code run on them.",
    )
    changed_outcomes: dict[str, str] = Field(
        default_factory=dict,
        description="The candidate's pass or fail (`fails 0/2`) on each changed or new case.",
    )
    previous_outcomes: dict[str, str] = Field(
        default_factory=dict,
        description="Critical cases edited since the baseline: the candidate's pass or fail "
        "on the baseline's own (previous) version of each (a pass it lost there is "
        "critical_broken).",
    )
    previous_missing: dict[str, str] = Field(
        default_factory=dict,
        description="Edited critical cases whose previous version could not be found, and why.",
    )
    previous_run: int | None = Field(
        None, description="The stored run of the candidate on those previous versions."
    )
    weakened_cases: dict[str, str] = Field(
        default_factory=dict,
        description='Edited critical cases that lost checks (`expected_tools lost "refund"`), '
        "whether or not the candidate passes them.",
    )
    baseline_side: str | None = Field(
        None,
        description="How the baseline's side of changed and new cases was made: `baseline "
        "side run from commit abc1234`, or why it could not be (`baseline commit "
        "unavailable: ...`).",
    )
    baseline_side_run: int | None = Field(
        None, description="The stored run of the baseline's code on those cases."
    )
    not_run_cases: list[str] = Field(
        default_factory=list, description="Baseline cases the candidate did not run."
    )
    not_run_tiers: dict[str, str] = Field(
        default_factory=dict, description="The baseline's tier of each not-run case."
    )
    simulator_error_cases: list[str] = Field(
        default_factory=list,
        description="Not compared: one side's every repeat was a simulator error (missing "
        "evidence, never broken or missing).",
    )
    simulator_errors: int = Field(
        0,
        description="Results whose simulated user failed (not agent failures): the "
        "candidate's, and the baseline side's on changed and new cases.",
    )
    baseline_side_simulator_errors: int = Field(
        0, description="Of simulator_errors, those of the baseline side's run."
    )
    tier_changes: dict[str, str] = Field(
        default_factory=dict,
        description="Cases critical in the baseline that the candidate's dataset removed or "
        "demoted (`demoted to standard since the baseline`): critical_missing.",
    )
    datasets_differ: bool = False
    notes: list[str] = Field(default_factory=list)
    power: PowerEstimate | None = None

    @property
    def blocking(self) -> list[RegressionReason]:
        """The reasons that fail the gate."""
        return [r for r in self.reasons if r.severity == "block"]

"""The regression rules, applied case by case on the cases both sides ran with the same content.

==================== ===================================================== ========
rule                 fires when                                            default
==================== ===================================================== ========
``suite_drop``       the suite score over the compared counted cases        block
                     drops by more than ``max_drop`` and its paired-
                     bootstrap interval lies below 0 (otherwise a warning)
``critical_broken``  a critical case went from pass to fail                 block
``critical_missing`` a critical case that passed is still in the dataset    block
                     but was not run
``happy_path_fail``  a happy-path case went from pass to fail               block
``category_broken``  every compared counted case of a category fails while  block
                     the baseline passed at least one
``pass_to_fail``     any other counted case went from pass to fail          warn
``case_score_drop``  a counted case that did not break lost at least        warn
                     ``case_drop`` (0.1) of mean score
==================== ===================================================== ========

*Pass to fail*: the case passed in the baseline (a strict majority of its repeats) and in the
candidate either a majority of repeats fail or its pass rate fell significantly (Fisher's
one-sided exact test below ``alpha``). A case that was *flaky* in the baseline
(0 < pass rate < 1) is listed apart with severity ``flaky`` and does not block unless
``flaky_blocks``. Pending-tier cases never fire. Which rules block is :attr:`RuleConfig.block`
(``--block`` / ``arena.yaml``); the others are listed as warnings. Every case rule names why
the case broke (``arena.gate.classify``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from arena.gate.alignment import Alignment, align
from arena.gate.classify import KIND_WORDS, classify
from arena.gate.noise import Interval, paired_bootstrap, pass_drop_p_value
from arena.gate.power import PowerEstimate, power_estimate
from arena.golden.models import Category, GoldenDataset, Tier
from arena.records import RunResult
from arena.scoring.aggregate import VariantScores
from arena.scoring.combined import CaseScore
from arena.scoring.regression import (
    MAX_DROP,
    Baseline,
    CaseRecord,
    RegressionReason,
    RegressionReport,
    Severity,
    make_baseline,
)
from arena.scoring.types import mean

RULES: dict[str, str] = {
    "suite_drop": "the suite score drops by more than max_drop, significantly",
    "critical_broken": "a critical case goes from pass to fail",
    "critical_missing": "a critical case that passed was not run",
    "happy_path_fail": "a happy-path case goes from pass to fail",
    "category_broken": "every case of a category fails (the baseline passed one)",
    "pass_to_fail": "any other counted case goes from pass to fail",
    "case_score_drop": "a case loses at least case_drop of mean score",
}
"""Every rule and what makes it fire."""
DEFAULT_BLOCKING: tuple[str, ...] = (
    "suite_drop",
    "critical_broken",
    "critical_missing",
    "happy_path_fail",
    "category_broken",
)
"""Rules that fail the gate by default; the others are warnings."""


class RuleConfig(BaseModel):
    """Knobs of the regression rules."""

    model_config = ConfigDict(extra="forbid")

    block: list[str] = Field(
        default_factory=lambda: list(DEFAULT_BLOCKING),
        description="Rules that fail the gate; the others warn.",
    )
    max_drop: float = Field(MAX_DROP, ge=0, le=1)
    case_drop: float = Field(0.1, gt=0, le=1)
    alpha: float = Field(0.05, gt=0, lt=1)
    bootstrap: int = Field(2000, ge=100)
    seed: int = 0
    flaky_blocks: bool = False

    @field_validator("block")
    @classmethod
    def _known_rules(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - set(RULES))
        if unknown:
            raise ValueError(f"unknown rule(s) {', '.join(unknown)}; rules: {', '.join(RULES)}")
        return value


def _severity(rule: str, config: RuleConfig, flaky: bool = False) -> Severity:
    if flaky and not config.flaky_blocks:
        return "flaky"
    return "block" if rule in config.block else "warn"


def is_broken(before: CaseRecord, now: CaseRecord, alpha: float) -> bool:
    """Pass to fail: passed before, and now a majority fails or the rate fell significantly."""
    if not before.passed:
        return False
    if not now.passed:
        return True
    return pass_drop_p_value(before.passes, before.n, now.passes, now.n) < alpha


def _case_reason(
    rule: str, case_id: str, before: CaseRecord, now: CaseRecord, config: RuleConfig, what: str
) -> RegressionReason:
    kind, check = classify(before, now)
    why = f"{KIND_WORDS[kind]}: {check}" if kind else check
    message = f"{what} {case_id}: {before.passes}/{before.n} -> {now.passes}/{now.n} passes ({why})"
    return RegressionReason(
        rule=rule,
        case_id=case_id,
        message=message,
        kind=kind,
        check=check,
        severity=_severity(rule, config, before.flaky),
    )


def _case_rules(
    base: Baseline, cand: Baseline, compared: list[str], config: RuleConfig
) -> tuple[list[RegressionReason], list[str]]:
    reasons: list[RegressionReason] = []
    broken: list[str] = []
    for case_id in compared:
        before, now = base.cases[case_id], cand.cases[case_id]
        if not before.counted or not now.counted:
            continue
        if is_broken(before, now, config.alpha):
            broken.append(case_id)
            if before.tier == Tier.CRITICAL:
                reasons.append(
                    _case_reason("critical_broken", case_id, before, now, config, "critical case")
                )
            if before.category == Category.HAPPY_PATH:
                reasons.append(
                    _case_reason("happy_path_fail", case_id, before, now, config, "happy-path case")
                )
            if before.tier != Tier.CRITICAL and before.category != Category.HAPPY_PATH:
                reasons.append(_case_reason("pass_to_fail", case_id, before, now, config, "case"))
            continue
        was, score = before.score_mean, now.score_mean
        if was is not None and score is not None and was - score >= config.case_drop - 1e-12:
            kind, check = classify(before, now)
            why = f"{KIND_WORDS[kind]}: {check}" if kind else check
            reasons.append(
                RegressionReason(
                    rule="case_score_drop",
                    case_id=case_id,
                    kind=kind,
                    check=check,
                    severity=_severity("case_score_drop", config, before.flaky),
                    message=f"case {case_id}: mean score {was:.3f} -> {score:.3f} ({why})",
                )
            )
    return reasons, broken


def _missing_rule(base: Baseline, not_run: list[str], config: RuleConfig) -> list[RegressionReason]:
    return [
        RegressionReason(
            rule="critical_missing",
            case_id=case_id,
            severity=_severity("critical_missing", config, base.cases[case_id].flaky),
            message=f"critical case {case_id} passed in the baseline and was not run",
        )
        for case_id in not_run
        if base.cases[case_id].tier == Tier.CRITICAL and base.cases[case_id].passed
    ]


def _category_rule(
    base: Baseline, cand: Baseline, compared: list[str], config: RuleConfig
) -> list[RegressionReason]:
    reasons = []
    counted = [c for c in compared if base.cases[c].counted and cand.cases[c].counted]
    for category in sorted({cand.cases[c].category for c in counted}):
        ids = [c for c in counted if cand.cases[c].category == category]
        before = sum(base.cases[c].passed for c in ids)
        if before and not any(cand.cases[c].passed for c in ids):
            reasons.append(
                RegressionReason(
                    rule="category_broken",
                    severity=_severity("category_broken", config),
                    message=f"category {category}: all {len(ids)} compared cases fail (baseline "
                    f"passed {before})",
                )
            )
    return reasons


class SuiteFigures(BaseModel):
    """Suite score and pass rate of both sides over the compared counted cases."""

    baseline_score: float | None
    candidate_score: float | None
    interval: Interval | None = None
    baseline_pass_rate: float
    candidate_pass_rate: float
    note: str | None = None


def _suite(base: Baseline, cand: Baseline, counted: list[str], config: RuleConfig) -> SuiteFigures:
    rates = [
        mean([base.cases[c].pass_rate for c in counted]),
        mean([cand.cases[c].pass_rate for c in counted]),
    ]
    now = [cand.cases[c].score_mean for c in counted]
    before = [base.cases[c].score_mean for c in counted]
    if not counted or any(v is None for v in now):
        return SuiteFigures(
            baseline_score=None,
            candidate_score=None,
            baseline_pass_rate=rates[0],
            candidate_pass_rate=rates[1],
            note="no counted case to compare",
        )
    scores_now = [float(v) for v in now if v is not None]
    if all(v is not None for v in before):
        scores_before = [float(v) for v in before if v is not None]
        interval = paired_bootstrap(
            scores_before, scores_now, rounds=config.bootstrap, seed=config.seed, alpha=config.alpha
        )
        return SuiteFigures(
            baseline_score=mean(scores_before),
            candidate_score=mean(scores_now),
            interval=interval,
            baseline_pass_rate=rates[0],
            candidate_pass_rate=rates[1],
        )
    if set(counted) == {c for c, r in base.cases.items() if r.counted}:
        return SuiteFigures(
            baseline_score=base.suite_score,
            candidate_score=mean(scores_now),
            baseline_pass_rate=rates[0],
            candidate_pass_rate=rates[1],
            note="the baseline has no per-case scores: its suite score is "
            "compared without an interval",
        )
    return SuiteFigures(
        baseline_score=None,
        candidate_score=mean(scores_now),
        baseline_pass_rate=rates[0],
        candidate_pass_rate=rates[1],
        note="suite score not compared: the baseline has no per-case scores "
        "and the candidate ran other cases",
    )


def _suite_rule(suite: SuiteFigures, config: RuleConfig) -> list[RegressionReason]:
    if suite.baseline_score is None or suite.candidate_score is None:
        return []
    drop = suite.baseline_score - suite.candidate_score
    if drop <= config.max_drop:
        return []
    text = (
        f"suite score {suite.baseline_score:.3f} -> {suite.candidate_score:.3f} "
        f"(drop {drop:.3f} > {config.max_drop:.3f}"
    )
    interval = suite.interval
    if interval is None:
        return [
            RegressionReason(
                rule="suite_drop", message=text + ")", severity=_severity("suite_drop", config)
            )
        ]
    ci = (
        f"; {interval.level:.0%} interval of the change [{interval.low:+.3f}, {interval.high:+.3f}]"
    )
    if interval.high < 0:
        return [
            RegressionReason(
                rule="suite_drop", message=text + ci + ")", severity=_severity("suite_drop", config)
            )
        ]
    return [
        RegressionReason(
            rule="suite_drop",
            severity="warn",
            message=text + ci + ", not significant: it includes 0)",
        )
    ]


def _power(
    base: Baseline, cand: Baseline, counted: list[str], suite: SuiteFigures, config: RuleConfig
) -> PowerEstimate | None:
    interval = suite.interval
    if interval is None or suite.baseline_score is None or suite.candidate_score is None:
        return None
    undecided = (
        suite.baseline_score - suite.candidate_score > config.max_drop and interval.high >= 0
    )
    if not undecided:
        return None
    groups = []
    for case_id in counted:
        before = base.cases[case_id].score_mean or 0.0
        groups.append([s - before for s in cand.cases[case_id].scores])
    return power_estimate(groups, 0.0, alpha=config.alpha, what="the suite-score change")


def compare_snapshots(
    base: Baseline,
    cand: Baseline,
    config: RuleConfig | None = None,
    dataset_hashes: Mapping[str, str] | None = None,
) -> RegressionReport:
    """Apply the rules (module docstring) to a candidate snapshot against a baseline."""
    config = config or RuleConfig()
    aligned: Alignment = align(base, cand, dataset_hashes)
    compared = aligned.compared
    counted = [c for c in compared if base.cases[c].counted and cand.cases[c].counted]
    suite = _suite(base, cand, counted, config)
    case_reasons, broken = _case_rules(base, cand, compared, config)
    reasons = [
        *_suite_rule(suite, config),
        *case_reasons,
        *_missing_rule(base, aligned.not_run, config),
        *_category_rule(base, cand, compared, config),
    ]
    notes = [*aligned.notes, *([suite.note] if suite.note else [])]
    delta = (
        None
        if suite.baseline_score is None or suite.candidate_score is None
        else suite.candidate_score - suite.baseline_score
    )
    interval = suite.interval
    return RegressionReport(
        baseline=base.name,
        candidate=cand.label,
        regressed=any(r.severity == "block" for r in reasons),
        reasons=reasons,
        baseline_score=suite.baseline_score,
        candidate_score=suite.candidate_score,
        suite_delta=delta,
        suite_delta_low=interval.low if interval else None,
        suite_delta_high=interval.high if interval else None,
        baseline_pass_rate=suite.baseline_pass_rate,
        candidate_pass_rate=suite.candidate_pass_rate,
        pass_rate_delta=suite.candidate_pass_rate - suite.baseline_pass_rate,
        max_drop=config.max_drop,
        compared_cases=compared,
        pending_cases=[c for c in compared if c not in counted],
        fixed_cases=[c for c in compared if cand.cases[c].passed and not base.cases[c].passed],
        broken_cases=broken,
        flaky_cases=[c for c in compared if base.cases[c].flaky],
        missing_cases=[
            r.case_id for r in reasons if r.rule == "critical_missing" and r.case_id is not None
        ],
        new_cases=aligned.added,
        removed_cases=aligned.removed,
        changed_cases=aligned.changed,
        not_run_cases=aligned.not_run,
        datasets_differ=aligned.datasets_differ,
        notes=notes,
        power=_power(base, cand, counted, suite, config),
    )


def snapshot(
    scores: VariantScores,
    cases: list[CaseScore],
    *,
    results: Sequence[RunResult] = (),
    dataset: GoldenDataset | str = "",
    name: str = "candidate",
    **extra: Any,
) -> Baseline:
    """The candidate's snapshot (a :class:`Baseline` that is not saved)."""
    return make_baseline(scores, cases, name=name, dataset=dataset, results=results, **extra)


def check_candidate(
    baseline: Baseline,
    candidate: VariantScores,
    cases: list[CaseScore],
    *,
    max_drop: float | None = None,
    results: Sequence[RunResult] = (),
    dataset: GoldenDataset | None = None,
    rules: RuleConfig | None = None,
) -> RegressionReport:
    """Gate a candidate's scores against a baseline (``max_drop`` overrides the rules')."""
    config = rules or RuleConfig()
    if max_drop is not None:
        config = config.model_copy(update={"max_drop": max_drop})
    cand = snapshot(
        candidate,
        cases,
        results=results,
        dataset=dataset if dataset is not None else baseline.dataset,
    )
    hashes = None
    if dataset is not None:
        from arena.golden import case_hash

        hashes = {case.id: case_hash(case) for case in dataset.test_cases}
    return compare_snapshots(baseline, cand, config, hashes)

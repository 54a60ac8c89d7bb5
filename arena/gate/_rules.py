"""The regression rules, applied case by case on the cases both sides ran with the same content.

==================== ===================================================== ========
rule                 fires when                                            default
==================== ===================================================== ========
``suite_drop``       the suite score over the compared counted cases        block
                     drops by more than ``max_drop`` and its paired-
                     bootstrap interval lies below 0 (otherwise a warning)
``critical_broken``  a critical case went from pass to fail; or one edited  block
                     since the baseline fails its previous version, which
                     the baseline passed (``arena.ci._previous``)
``critical_missing`` a critical case that passed is still in the dataset    block
                     but was not run; or a case critical in the baseline
                     was removed from the dataset or demoted, until the
                     baseline is saved again (``arena.gate._changed``)
``happy_path_fail``  a happy-path case went from pass to fail               block
``category_broken``  every compared counted case of a category fails while  block
                     the baseline passed at least one
``pass_to_fail``     any other counted case went from pass to fail          warn
``case_score_drop``  a counted case that did not break lost at least        warn
                     ``case_drop`` (0.1) of mean score
``critical_failing`` a critical or happy-path case that changed since the   block
                     baseline (or is new) fails and did not break: the
                     baseline's code could not be run on it, its side was
                     only simulator errors, or it fails it too
                     (``arena.gate._changed``)
==================== ===================================================== ========

Cases that changed since the baseline, or are new, are compared against the baseline's code
run on their new content when the gate could run it (``side``,
:mod:`arena.ci._baseline_side`); ``critical_failing`` applies to those the candidate fails
that did not break.

Cases a side ran but whose every repeat was a *simulator error* (the simulated user failed)
hold no evidence about the agent: they are not compared, never broken, fixed or missing, and the
report's notes count the simulator errors (``N simulator errors (not agent failures)``).

*Pass to fail*: the case passed in the baseline (a strict majority of its repeats) and in the
candidate either a majority of repeats fail or its pass rate fell significantly (Fisher's
one-sided exact test below ``alpha``). A case that was *flaky* in the baseline
(0 < pass rate < 1) is listed apart with severity ``flaky`` and does not block unless
``flaky_blocks``. Pending-tier cases never fire. Which rules block is :attr:`RuleConfig.block`
(``--block`` / ``arena.yaml``); the others are listed as warnings. Every case rule names why
the case broke (``arena.gate._classify``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from arena.gate._alignment import Alignment, align
from arena.gate._changed import (
    failing_why,
    is_broken,
    outcome,
    outcomes,
    previous_rule,
    side_message,
    tier_changes,
    tier_rule,
    touched,
    unjudged_rule,
    with_side,
)
from arena.gate._classify import KIND_WORDS, classify
from arena.gate._regression import RegressionReason, RegressionReport
from arena.gate._rule_config import RULES, RuleConfig, severity
from arena.gate._suite import suite_figures, suite_power, suite_rule
from arena.golden._models import Category, GoldenDataset, Tier
from arena.records.results import RunResult
from arena.scoring._aggregate import VariantScores
from arena.scoring._baseline import Baseline, CaseRecord, make_baseline
from arena.scoring._combined import CaseScore

if TYPE_CHECKING:
    from arena.ci._baseline_side import BaselineSide


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
        severity=severity(rule, config, before.flaky),
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
                    severity=severity("case_score_drop", config, before.flaky),
                    message=f"case {case_id}: mean score {was:.3f} -> {score:.3f} ({why})",
                )
            )
    return reasons, broken


def _missing_rule(base: Baseline, not_run: list[str], config: RuleConfig) -> list[RegressionReason]:
    return [
        RegressionReason(
            rule="critical_missing",
            case_id=case_id,
            severity=severity("critical_missing", config, base.cases[case_id].flaky),
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
                    severity=severity("category_broken", config),
                    message=f"category {category}: all {len(ids)} compared cases fail (baseline "
                    f"passed {before})",
                )
            )
    return reasons


def simulator_note(count: int, cases: Sequence[str], side: int = 0) -> str:
    """``N simulator errors (not agent failures)``, and the cases left without evidence
    (``side``: how many of the ``count`` the baseline side's run had)."""
    plural = "s" if count != 1 else ""
    note = f"{count} simulator error{plural} (not agent failures)"
    if side:
        note += f", {side} of them on the baseline side"
    note += ": left out of the pass figures"
    if cases:
        note += (
            f"; no other repeat of {', '.join(cases)}, so not compared (missing evidence: "
            "rerun them, e.g. with a stronger --user-model)"
        )
    return note


def compare_snapshots(
    base: Baseline,
    cand: Baseline,
    config: RuleConfig | None = None,
    dataset_hashes: Mapping[str, str] | None = None,
    side: BaselineSide | None = None,
    dataset_tiers: Mapping[str, str] | None = None,
) -> RegressionReport:
    """Apply the rules (module docstring) to a candidate snapshot against a baseline;
    ``side``: the baseline's code run on the cases changed since it (None: not run);
    ``dataset_tiers``: the candidate's dataset, case id -> tier (removed or demoted critical
    cases)."""
    config = config or RuleConfig()
    original: Alignment = align(base, cand, dataset_hashes)
    changed = touched(original, cand)
    original_base, base = base, with_side(base, changed, side.cases if side else {})
    aligned = align(base, cand, dataset_hashes) if base is not original_base else original
    rerun = [c for c in changed if c in aligned.compared]
    side_errors = side.simulator_errors if side else {}
    previous = side.previous if side else {}
    lost = [c for c in changed if c not in rerun and c in side_errors]
    path = side_message(side.message if side else None, changed)
    compared = aligned.compared
    counted = [c for c in compared if base.cases[c].counted and cand.cases[c].counted]
    suite = suite_figures(base, cand, counted, config)
    case_reasons, broken = _case_rules(base, cand, compared, config)
    tiers = tier_changes(original_base, dataset_tiers)
    reasons = [
        *suite_rule(suite, config),
        *case_reasons,
        *_missing_rule(base, aligned.not_run, config),
        *tier_rule(original_base, tiers, config),
        *_category_rule(base, cand, compared, config),
        *unjudged_rule(
            cand, failing_why(base, changed, rerun, broken, lost, path), original.added, config
        ),
        *previous_rule(original_base, previous, config),
    ]
    side_simulated = sum(side_errors.values())
    simulated = sum(cand.simulator_errors.values()) + side_simulated
    missing_evidence = [*aligned.simulator_errors, *lost]
    notes = [
        *aligned.notes,
        *([suite.note] if suite.note else []),
        *([simulator_note(simulated, missing_evidence, side_simulated)] if simulated else []),
    ]
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
        suite_delta_level=1 - config.alpha,
        baseline_pass_rate=suite.baseline_pass_rate,
        candidate_pass_rate=suite.candidate_pass_rate,
        pass_rate_delta=suite.candidate_pass_rate - suite.baseline_pass_rate,
        max_drop=config.max_drop,
        blocking_rules=[r for r in RULES if r in config.block],
        compared_cases=compared,
        pending_cases=[c for c in compared if c not in counted],
        fixed_cases=sorted(
            c for c in compared if cand.cases[c].passed and not base.cases[c].passed
        ),
        broken_cases=broken,
        flaky_cases=[c for c in compared if base.cases[c].flaky],
        missing_cases=[
            r.case_id for r in reasons if r.rule == "critical_missing" and r.case_id is not None
        ],
        new_cases=original.added,
        removed_cases=aligned.removed,
        changed_cases=original.changed,
        rerun_cases=rerun,
        changed_outcomes=outcomes(cand, changed),
        previous_outcomes={c: outcome(r) for c, r in previous.items()},
        previous_missing=side.previous_missing if side else {},
        previous_run=side.previous_run if side else None,
        weakened_cases=side.weakened if side else {},
        baseline_side=path,
        baseline_side_run=side.run_id if side is not None and changed else None,
        not_run_cases=aligned.not_run,
        not_run_tiers={c: str(base.cases[c].tier) for c in aligned.not_run},
        tier_changes=tiers,
        simulator_error_cases=missing_evidence,
        simulator_errors=simulated,
        baseline_side_simulator_errors=side_simulated,
        datasets_differ=aligned.datasets_differ,
        notes=notes,
        power=suite_power(base, cand, counted, suite, config),
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


def check_regression(
    baseline: Baseline,
    candidate: VariantScores,
    candidate_cases: list[CaseScore],
    max_drop: float | None = None,
    **options: Any,
) -> RegressionReport:
    """Gate ``candidate`` against ``baseline`` case by case (:func:`check_candidate`).

    ``max_drop``, when given, overrides the rules' own (default
    :data:`arena.gate._regression.MAX_DROP`). ``options``: ``results`` (run records: budgets
    and case hashes), ``dataset`` (the candidate's dataset: version, hashes, which cases
    exist) and ``rules`` (a :class:`arena.gate.RuleConfig`).
    """
    return check_candidate(baseline, candidate, candidate_cases, max_drop=max_drop, **options)

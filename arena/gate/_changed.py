"""Cases that changed since the baseline, or are new: never left unjudged.

When the baseline's code ran on them (:mod:`arena.ci._baseline_side`), its records replace
the baseline's old ones and the cases are compared like any other (broken, fixed, score
drops). ``critical_failing`` fires on each critical or happy-path one the candidate fails that
did not break: the baseline's code could not run on it, its side was only simulator errors, or
the baseline's code fails it too (an edited critical case that fails on both sides is still a
critical case that fails: the change that edits it makes it pass, or moves it out of the
critical tier knowingly). The report shows the candidate's pass or fail on every one.

A case critical in the baseline that the candidate's dataset removed or demoted is
``critical_missing`` (:func:`tier_changes`) until the baseline is saved again.
"""

from __future__ import annotations

from collections.abc import Mapping

from arena.gate._alignment import Alignment
from arena.gate._classify import KIND_WORDS, classify, with_turns
from arena.gate._noise import pass_drop_p_value
from arena.gate._regression import RegressionReason
from arena.gate._rule_config import RuleConfig, severity
from arena.golden._models import Category, Tier
from arena.scoring._baseline import Baseline, CaseRecord

NOT_RUN = "baseline side not run"


def touched(aligned: Alignment, cand: Baseline) -> list[str]:
    """The changed and new cases the candidate ran."""
    return [c for c in (*aligned.changed, *aligned.added) if c in cand.cases]


def with_side(base: Baseline, cases: list[str], side: Mapping[str, CaseRecord]) -> Baseline:
    """The baseline with the records of ``cases`` its code made (``side``) in place of the
    old ones."""
    rerun = {c: side[c] for c in cases if c in side}
    return base.model_copy(update={"cases": {**base.cases, **rerun}}) if rerun else base


def is_broken(before: CaseRecord, now: CaseRecord, alpha: float) -> bool:
    """Pass to fail: passed before, and now a majority fails or the rate fell significantly."""
    if not before.passed:
        return False
    if not now.passed:
        return True
    return pass_drop_p_value(before.passes, before.n, now.passes, now.n) < alpha


ACCEPT_EDIT = (
    "to accept the edit, save the baseline again in the same change: arena baseline save "
    "VARIANT --export FILE"
)


def previous_rule(
    base: Baseline, previous: Mapping[str, CaseRecord], config: RuleConfig
) -> list[RegressionReason]:
    """``critical_broken`` on each critical case edited since ``base`` whose previous version
    (the baseline's, :mod:`arena.ci._previous`) the baseline passed and the candidate fails
    (``previous``: the candidate's records on those versions)."""
    reasons = []
    for case_id, now in previous.items():
        before = base.cases[case_id]
        if not is_broken(before, now, config.alpha):
            continue
        kind, check = classify(before, now)
        detail = f"{KIND_WORDS[kind]}: {check}" if kind else check
        reasons.append(
            RegressionReason(
                rule="critical_broken",
                case_id=case_id,
                kind=kind,
                check=check,
                severity=severity("critical_broken", config, before.flaky),
                message=f"critical case {case_id} was edited in this change and the candidate "
                f"fails its previous version: {before.passes}/{before.n} -> "
                f"{now.passes}/{now.n} passes ({detail}); {ACCEPT_EDIT}",
            )
        )
    return reasons


def outcome(record: CaseRecord) -> str:
    """``passes 2/2`` or ``fails 0/2``."""
    return f"{'passes' if record.passed else 'fails'} {record.passes}/{record.n}"


def outcomes(cand: Baseline, cases: list[str]) -> dict[str, str]:
    """The candidate's pass or fail on each case."""
    return {c: outcome(cand.cases[c]) for c in cases}


def _blocks_alone(record: CaseRecord) -> bool:
    return record.counted and (
        record.tier == Tier.CRITICAL or record.category == Category.HAPPY_PATH
    )


def unjudged_rule(
    cand: Baseline,
    cases: Mapping[str, str],
    added: list[str],
    config: RuleConfig,
) -> list[RegressionReason]:
    """``critical_failing`` on each critical or happy-path case of ``cases`` (case id -> why
    the comparison did not settle it) the candidate fails (``added``: the new ones; the
    others changed)."""
    reasons = []
    for case_id, why in cases.items():
        now = cand.cases[case_id]
        if now.passed or not _blocks_alone(now):
            continue
        kind, check = classify(now.model_copy(update={"components": {}}), now)
        check = with_turns(now, check)
        what = "critical case" if now.tier == Tier.CRITICAL else "happy-path case"
        how = "is new" if case_id in added else "changed since the baseline"
        detail = f"{KIND_WORDS[kind]}: {check}" if kind else check
        reasons.append(
            RegressionReason(
                rule="critical_failing",
                case_id=case_id,
                kind=kind,
                check=check,
                severity=severity("critical_failing", config),
                message=f"{what} {case_id} {how} and the candidate {outcome(now)} ({detail}); "
                f"{why}",
            )
        )
    return reasons


def failing_why(
    base: Baseline,
    changed: list[str],
    rerun: list[str],
    broken: list[str],
    lost: list[str],
    path: str | None,
) -> dict[str, str]:
    """Changed and new cases ``critical_failing`` may fire on, each with why the comparison did
    not settle it (``lost``: the baseline side's were only simulator errors)."""
    why = {}
    for case_id in changed:
        if case_id in broken:
            continue
        if case_id in rerun:
            why[case_id] = (
                f"the baseline's code {outcome(base.cases[case_id])} on it too: make it pass, "
                "or move it out of the tier knowingly"
            )
        elif case_id in lost:
            why[case_id] = (
                "the baseline side's every repeat was a simulator error (missing evidence)"
            )
        else:
            why[case_id] = f"not compared: {path}"
    return why


REMOVED = "critical in the baseline, removed from the dataset"


def tier_changes(base: Baseline, dataset_tiers: Mapping[str, str] | None) -> dict[str, str]:
    """Cases critical in the baseline that the candidate's dataset removed or demoted, each
    with what happened (``demoted to standard since the baseline``); ``dataset_tiers``: the
    candidate's dataset, case id -> tier (None: unknown, nothing found)."""
    if dataset_tiers is None:
        return {}
    found = {}
    for case_id, record in base.cases.items():
        if record.tier != Tier.CRITICAL:
            continue
        tier = dataset_tiers.get(case_id)
        if tier is None:
            found[case_id] = REMOVED
        elif tier != Tier.CRITICAL:
            found[case_id] = f"demoted to {tier} since the baseline"
    return found


def tier_rule(
    base: Baseline, changes: Mapping[str, str], config: RuleConfig
) -> list[RegressionReason]:
    """``critical_missing`` on each case of :func:`tier_changes`."""
    return [
        RegressionReason(
            rule="critical_missing",
            case_id=case_id,
            severity=severity("critical_missing", config),
            message=f"critical case {case_id}: {what} (to change it on purpose, save the "
            "baseline again in the same change)",
        )
        for case_id, what in changes.items()
        if case_id in base.cases
    ]


def side_message(message: str | None, cases: list[str]) -> str | None:
    """Which path the baseline's side of changed cases took (``message``: the side's, None
    when none was tried; the result is None when there is no such case)."""
    if not cases:
        return None
    return message or NOT_RUN

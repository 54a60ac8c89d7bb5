"""Cases that changed since the baseline, or are new: never left unjudged.

When the baseline's code ran on them (:mod:`arena.gate._baseline_side`), its records replace
the baseline's old ones and the cases are compared like any other (broken, fixed, score
drops). When it could not run, ``critical_failing`` fires on each critical or happy-path one
the candidate fails, and the report shows the candidate's pass or fail on every one.
"""

from __future__ import annotations

from collections.abc import Mapping

from arena.gate._alignment import Alignment
from arena.gate._classify import KIND_WORDS, classify
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
    cases: list[str],
    added: list[str],
    config: RuleConfig,
    why: str,
) -> list[RegressionReason]:
    """``critical_failing`` on each critical or happy-path case of ``cases`` the candidate
    fails (``added``: the new ones; the others changed; ``why``: why no baseline ran)."""
    reasons = []
    for case_id in cases:
        now = cand.cases[case_id]
        if now.passed or not _blocks_alone(now):
            continue
        kind, check = classify(now.model_copy(update={"components": {}}), now)
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


def side_message(message: str | None, cases: list[str]) -> str | None:
    """Which path the baseline's side of changed cases took (``message``: the side's, None
    when none was tried; the result is None when there is no such case)."""
    if not cases:
        return None
    return message or NOT_RUN

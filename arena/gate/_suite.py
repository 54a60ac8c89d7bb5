"""The suite score of both sides over the compared counted cases, its paired-bootstrap
interval, the ``suite_drop`` rule, and a power estimate when the drop is undecided."""

from __future__ import annotations

from pydantic import BaseModel

from arena.compare._power import PowerEstimate, power_estimate
from arena.gate._noise import Interval, paired_bootstrap
from arena.gate._regression import RegressionReason
from arena.gate._rule_config import RuleConfig, severity
from arena.scoring._baseline import Baseline
from arena.scoring._types import mean


class SuiteFigures(BaseModel):
    """Suite score and pass rate of both sides over the compared counted cases."""

    baseline_score: float | None
    candidate_score: float | None
    interval: Interval | None = None
    baseline_pass_rate: float
    candidate_pass_rate: float
    note: str | None = None


def suite_figures(
    base: Baseline, cand: Baseline, counted: list[str], config: RuleConfig
) -> SuiteFigures:
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


def suite_rule(suite: SuiteFigures, config: RuleConfig) -> list[RegressionReason]:
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
                rule="suite_drop", message=text + ")", severity=severity("suite_drop", config)
            )
        ]
    ci = (
        f"; {round(100 * interval.level, 6):g}% interval of the change "
        f"[{interval.low:+.3f}, {interval.high:+.3f}]"
    )
    if interval.high < 0:
        return [
            RegressionReason(
                rule="suite_drop", message=text + ci + ")", severity=severity("suite_drop", config)
            )
        ]
    return [
        RegressionReason(
            rule="suite_drop",
            severity="warn",
            message=text + ci + ", not significant: it includes 0)",
        )
    ]


def suite_power(
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

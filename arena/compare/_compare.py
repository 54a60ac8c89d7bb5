"""Is the candidate better, non-inferior, worse or inconclusive against the baseline?"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from arena.compare._power import PowerEstimate, power_estimate, win_rate_groups
from arena.compare._routes import BranchCount, branch_counts, branch_rows
from arena.compare._undecided import decided_without, need_a_person, undecided_matters
from arena.defaults import BOOTSTRAP_ROUNDS
from arena.display import percent
from arena.evaluation.run_scores import load_run_scores
from arena.gate._limits import CostLimits, LimitCheck, check_cost_limits, figures_of
from arena.leaderboard._rating_inputs import battles_to_arrays, rated, select_battles, undecided
from arena.storage import Store
from arena.trust._accuracy import JudgeAccuracy, golden_marks, judge_accuracy
from arena.vocabulary import TIE

if TYPE_CHECKING:
    from arena.scoring._aggregate import VariantScores
    from judges._battle import Battle

Decision = Literal["better", "non-inferior", "worse", "inconclusive", "identical"]
"""``identical``: every battle was a tie between identical answers (nothing to judge)."""
VERDICT_WORDS: dict[str, str] = {"identical": "identical answers"}
"""How a verdict reads in a summary or a heading, when not its own name."""


class CompareReport(BaseModel):
    """Pairwise win rate with a (1 - alpha) interval over cases (95% at the default alpha
    0.05), golden deltas and cost deltas.

    The interval is :func:`arena.ratings.win_rate_interval`: it never has zero width, so a
    handful of ties is no proof of anything. ``battles`` counts the battles decided by a
    crashed answer (``crash_battles`` of them: a loss for the side that crashed, a tie when
    both did) with the judged ones.
    """

    run_id: int
    baseline: str
    candidate: str
    judge: str | None
    battles: int
    crash_battles: int = 0
    golden_battles: int = Field(
        0,
        exclude_if=lambda v: not v,
        description="Battles of two answers that say the same but were made differently, "
        "decided by the golden checks (only one side passed them), without a judge call.",
    )
    undecided: int = Field(
        0,
        description="Pairs the selective judge abstained on and nobody has voted on yet: "
        "in no win rate",
    )
    win_rate: float | None
    ci_low: float | None
    ci_high: float | None
    margin: float
    alpha: float = Field(0.05, description="The win-rate interval is at level 1 - alpha.")
    pass_rate: tuple[float, float]
    critical_pass_rate: tuple[float | None, float | None]
    mean_score: tuple[float, float]
    cost_per_query: tuple[float | None, float | None]
    p90_latency_s: tuple[float, float]
    regressed: bool
    verdict: Decision
    decided_by: str = Field(
        "",
        description="The criterion that decided the verdict, in words: the golden figure "
        "that fell (`golden pass rate 75% vs 100%`), the cost limit over budget, or what the "
        "win rate showed.",
    )
    reasons: list[str]
    summary: str
    budget: list[LimitCheck] = Field(default_factory=list)
    power: PowerEstimate | None = Field(
        None, description="When inconclusive: roughly how many more cases or repeats decide it."
    )
    judge_accuracy: JudgeAccuracy | None = Field(
        None,
        description="The judge's decisive-pair accuracy on the whole run (all its battles "
        "where the golden scores pick a winner): can its verdict be trusted?",
    )
    branches: list[BranchCount] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        description="How often each variant took each route through its LangGraph graph "
        "(empty when the agents are not graphs).",
    )


def _decide(
    lo: float | None, hi: float | None, margin: float, regressed: bool
) -> tuple[Decision, str]:
    if regressed:
        return "worse", "the golden scores regressed beyond the margin"
    if lo is None or hi is None:
        return "inconclusive", "no judged battles between the two variants"
    if lo > 0.5:
        return "better", f"the whole win-rate interval is above 0.5 (low {lo:.2f})"
    if hi < 0.5 - margin:
        return "worse", f"the whole win-rate interval is below {0.5 - margin:.2f}"
    if lo >= 0.5 - margin:
        return "non-inferior", f"the win-rate interval stays above {0.5 - margin:.2f}"
    return "inconclusive", f"the win-rate interval [{lo:.2f}, {hi:.2f}] straddles the margin"


def _all_identical(store: Store, run_id: int, battles: list[Battle]) -> bool:
    """Every battle is a tie between two answers that are the same (whitespace aside) and
    were made the same way (the same calls, state changes and graph path)."""
    from arena.battles._requests import identical

    results = {r.id: r for r in store.results(run_id)}
    return bool(battles) and all(
        b.winner == TIE
        and b.result_a_id in results
        and b.result_b_id in results
        and identical(results[b.result_a_id], results[b.result_b_id])
        for b in battles
    )


def _saving(base: float | None, cand: float | None) -> str:
    if base is None or cand is None:
        return "cost unknown"
    if base <= 0:
        return "same cost" if cand <= 0 else "costs more"
    change = (base - cand) / base
    return f"{percent(change)} cheaper" if change >= 0 else f"{percent(-change)} dearer"


def compare_variants(
    store: Store,
    baseline: str,
    candidate: str,
    *,
    run_id: int | None = None,
    judge_key: str | None = None,
    margin: float = 0.05,
    bootstrap: int = BOOTSTRAP_ROUNDS,
    seed: int = 0,
    budget: CostLimits | None = None,
    alpha: float = 0.05,
) -> CompareReport:
    """Compare two variants of one run on battles, golden scores and cost limits; the win
    rate's interval is at level ``1 - alpha`` (the gate passes ``rules.alpha``).

    A budget limit that does not hold makes the verdict ``worse``; an inconclusive verdict
    carries a power estimate (how many more cases or repeats would decide it).
    """
    from arena.ratings import win_rate_interval

    run = store.run(run_id)
    scores = load_run_scores(store, run.id)
    base, cand = scores.variant(baseline), scores.variant(candidate)
    judged = select_battles(store, run.id, judge_key)
    own = [b for b in judged if b.judge.key == judged[0].judge.key] if judged else []
    between = [b for b in judged if {b.variant_a, b.variant_b} == {baseline, candidate}]
    battles, waiting = rated(between), undecided(between)
    accuracy = (
        judge_accuracy(own, golden_marks(scores.cases), rounds=bootstrap, seed=seed)
        if own
        else None
    )
    win = lo = hi = None
    if battles:
        arrays = battles_to_arrays(battles)
        rate = win_rate_interval(arrays, candidate, baseline, level=1 - alpha)
        win, lo, hi = float(rate.win_rate), float(rate.ci_low), float(rate.ci_high)
    regressed = (
        cand.pass_rate < base.pass_rate - margin or cand.mean_score < base.mean_score - margin
    )
    identical = not regressed and not waiting and _all_identical(store, run.id, battles)
    decided: tuple[Decision, str] = (
        ("identical", "the two variants answered every judged case the same: nothing to judge")
        if identical
        else _decide(lo, hi, margin, regressed)
    )
    verdict, why = decided
    if waiting and not regressed:
        verdict, why = _with_undecided(
            verdict, why, battles, waiting, (candidate, baseline), margin, alpha
        )
    reasons, decided_by = [why], why
    if regressed:
        decided_by = _golden_fall(base, cand, margin)
    limits = check_cost_limits(figures_of(cand), figures_of(base), budget) if budget else []
    over = [check.message for check in limits if not check.passed]
    if over:
        reasons.append("over budget: " + "; ".join(over))
        decided_by = decided_by if verdict == "worse" else reasons[-1]
        verdict = "worse"
    power = None
    if verdict == "inconclusive" and battles:
        power = power_estimate(
            win_rate_groups(battles, candidate), 0.5 - margin, what="the win rate"
        )
        reasons.append(power.message)
    trust = _trust(accuracy) if battles else ""
    if trust:
        reasons.append(trust)
    if regressed:
        reasons.append(
            f"pass rate {percent(cand.pass_rate)} vs {percent(base.pass_rate)}, mean score "
            f"{cand.mean_score:.3f} vs {base.mean_score:.3f}"
        )
    rate_text = (
        f"every one of the {len(battles)} battles is a tie between identical answers"
        if identical
        else f"win rate {win:.2f} [{lo:.2f}, {hi:.2f}] over {len(battles)} battles"
        if win is not None and lo is not None and hi is not None
        else "no battles"
    )
    crashes = sum(b.is_crash for b in battles)
    if crashes:
        rate_text += f" ({crashes} decided by a crash)"
    by_golden = sum(b.is_golden for b in battles)
    if by_golden:
        rate_text += f" ({by_golden} same answers made differently, decided by golden checks)"
    if decided_by != why and battles:
        rate_text += ", not decisive"
    if waiting:
        rate_text += f"; {len(waiting)} undecided by the judge, waiting for a person"
    if battles and accuracy is not None:
        rate_text += f"; judge decisive-pair accuracy {accuracy.text()}"
    tokens_b = base.input_tokens_mean + base.output_tokens_mean
    tokens_c = cand.input_tokens_mean + cand.output_tokens_mean
    # the verdict's cause leads when the win rate did not decide it
    because = f": {decided_by}" if decided_by != why else ""
    golden = f"golden pass rate {percent(cand.pass_rate)} vs {percent(base.pass_rate)}"
    summary = (
        f"{candidate} vs {baseline}: {VERDICT_WORDS.get(verdict, verdict).upper()}{because} "
        f"({rate_text}; {'' if golden in because else golden + '; '}"
        f"{_saving(base.cost_mean_usd, cand.cost_mean_usd)}, {tokens_c:.0f} vs "
        f"{tokens_b:.0f} tokens per query, p90 latency {cand.latency_p90_s:.1f} s vs "
        f"{base.latency_p90_s:.1f} s)"
    )
    judge = battles[0].judge.label if battles else None
    return CompareReport(
        run_id=run.id,
        baseline=baseline,
        candidate=candidate,
        judge=judge,
        battles=len(battles),
        crash_battles=crashes,
        golden_battles=by_golden,
        undecided=len(waiting),
        win_rate=win,
        ci_low=lo,
        ci_high=hi,
        margin=margin,
        alpha=alpha,
        pass_rate=(base.pass_rate, cand.pass_rate),
        critical_pass_rate=(base.critical_pass_rate, cand.critical_pass_rate),
        mean_score=(base.mean_score, cand.mean_score),
        cost_per_query=(base.cost_mean_usd, cand.cost_mean_usd),
        p90_latency_s=(base.latency_p90_s, cand.latency_p90_s),
        regressed=regressed,
        verdict=verdict,
        decided_by=decided_by,
        reasons=reasons,
        summary=summary,
        budget=limits,
        power=power,
        judge_accuracy=accuracy,
        branches=branch_counts(store.results(run.id), [baseline, candidate]),
    )


def _golden_fall(base: VariantScores, cand: VariantScores, margin: float) -> str:
    """The golden figures that fell beyond ``margin``: ``golden pass rate 75% vs 100%``."""
    fell = []
    if cand.pass_rate < base.pass_rate - margin:
        fell.append(f"golden pass rate {percent(cand.pass_rate)} vs {percent(base.pass_rate)}")
    if cand.mean_score < base.mean_score - margin:
        fell.append(f"mean golden score {cand.mean_score:.3f} vs {base.mean_score:.3f}")
    return " and ".join(fell)


def _with_undecided(
    verdict: Decision,
    why: str,
    battles: list[Battle],
    waiting: list[Battle],
    pair: tuple[str, str],
    margin: float,
    alpha: float = 0.05,
) -> tuple[Decision, str]:
    """The verdict when a selective judge left ``waiting`` pairs to people: inconclusive,
    naming them, when they could change it (or nothing else was decided); else as it was."""
    candidate, baseline = pair
    if not battles or undecided_matters(
        battles, waiting, candidate, lambda bs: _verdict_on(bs, candidate, baseline, margin, alpha)
    ):
        return "inconclusive", need_a_person(len(waiting))
    return verdict, f"{why}; {decided_without(len(waiting))}"


def _verdict_on(
    battles: list[Battle], candidate: str, baseline: str, margin: float, alpha: float = 0.05
) -> str:
    """The win-rate verdict (golden scores aside) the gate would give on ``battles``."""
    from arena.ratings import win_rate_interval

    rate = win_rate_interval(battles_to_arrays(battles), candidate, baseline, level=1 - alpha)
    return _decide(float(rate.ci_low), float(rate.ci_high), margin, False)[0]


def _trust(accuracy: JudgeAccuracy | None) -> str:
    """What the judge's decisive-pair accuracy says about trusting its win rate."""
    if accuracy is None or accuracy.beats_chance is None:
        return (
            "the judge's accuracy is unmeasured: no battle of the run has a golden winner "
            "(one answer passing, the other failing)"
        )
    if accuracy.beats_chance:
        return ""
    return (
        f"the judge cannot beat chance on decisive pairs (accuracy {accuracy.text()}): "
        "its win rate is no evidence either way; trust the golden scores"
    )


def compare_markdown(report: CompareReport) -> str:
    """A Markdown block for a pull request or a CI step summary."""

    def row(label: str, pair: tuple[float | None, float | None], fmt: str) -> str:
        a, b = pair
        return (
            f"| {label} | {'-' if a is None else format(a, fmt)} | "
            f"{'-' if b is None else format(b, fmt)} |"
        )

    win = (
        "-"
        if report.win_rate is None
        else f"{report.win_rate:.2f} [{report.ci_low:.2f}, {report.ci_high:.2f}]"
    )
    return "\n".join(
        [
            f"### {report.candidate} vs {report.baseline}: "
            f"**{VERDICT_WORDS.get(report.verdict, report.verdict)}**",
            "",
            report.summary,
            "",
            f"Judge: {report.judge or 'none'}; battles: {report.battles}"
            + (f" ({report.crash_battles} decided by a crash)" if report.crash_battles else "")
            + (f"; undecided by the judge: {report.undecided}" if report.undecided else "")
            + "; candidate win rate "
            f"({_level(report.alpha)} CI over cases): {win}; margin {report.margin}",
            "",
            "Judge decisive-pair accuracy (95% CI): "
            + (report.judge_accuracy.text() if report.judge_accuracy else "unmeasured"),
            "",
            f"| figure | {report.baseline} | {report.candidate} |",
            "| --- | --- | --- |",
            row("golden pass rate", report.pass_rate, ".1%"),
            row("critical pass rate", report.critical_pass_rate, ".1%"),
            row("mean golden score", report.mean_score, ".3f"),
            "| cost per query (USD) | "
            + " | ".join("unknown" if c is None else f"{c:.5f}" for c in report.cost_per_query)
            + " |",
            row("p90 latency (s)", report.p90_latency_s, ".1f"),
            "",
            *[f"- {r}" for r in report.reasons],
            "",
            *_md_branches(report),
        ]
    )


def _md_branches(report: CompareReport) -> list[str]:
    """The branch counts as a Markdown table (nothing when the agents are not graphs)."""
    from arena.reports._markdown import md_table

    if not report.branches:
        return []
    variants = [report.baseline, report.candidate]
    rows = branch_rows(report.branches, variants)
    return ["Routes taken (results per route):", "", md_table(["route", *variants], rows), ""]


def _level(alpha: float) -> str:
    """The level of an interval at ``alpha``: 0.05 -> "95%", 0.025 -> "97.5%"."""
    return f"{round(100 * (1 - alpha), 6):g}%"

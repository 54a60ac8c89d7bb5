"""Sequential compare: run, score and judge case by case, and stop once the decision settles.

The selected cases go in a seeded random order (:func:`~arena.sequential._trace.case_order`),
``batch`` at a time: both variants run on the batch (the runner's cache and resume as
always; the run is the full design's run, so tasks never started leave an ordinary
"stopped" run), the results are scored, a critical case the candidate breaks stops at once
(``worse``, no statistics), then the judge judges the batch's pairs, each case's outcome
updates the betting confidence sequence (:class:`arena.sequential.BettingCS`), and
:func:`arena.sequential.decide` says whether to stop. A rerun replays the same order from
the cache and continues where the last one stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from arena.sequential import THREE_WAY, BettingCS, Question, Stop, decide
from arena.sequential._cases import OnlyCases
from arena.sequential._report import VERDICTS, Savings, SequentialReport, describe
from arena.sequential._trace import Point, case_order, golden_outcomes, judged_outcomes

if TYPE_CHECKING:
    from arena.golden import GoldenDataset
    from arena.runner import RunOptions
    from arena.storage import Store
    from arena.variants.variant import Variant
    from judges import JudgeSpec


@dataclass
class SequentialOptions:
    """Knobs of a sequential comparison (``arena compare/gate --sequential``)."""

    alpha: float = 0.05
    """Each side of the interval misses with at most alpha / 2 (false "better" <= 2.5%)."""
    margin: float = 0.05
    seed: int = 0
    """Seeds the order of the cases."""
    batch: int = 1
    """Cases run (and judged) between two looks; larger batches use concurrency better."""
    max_cases: int | None = None
    """The budget in cases (default: every selected case)."""
    finite: bool = False
    """The golden set is the whole population (sampling without replacement): the decision
    is about these cases only, and the interval closes on their exact mean at the end."""
    question: Question = THREE_WAY
    stop_on_critical: bool = True

    def check(self) -> None:
        """Raise InputError on an out-of-range knob (before anything runs)."""
        from arena.errors import InputError

        if not 0 < self.alpha < 1:
            raise InputError(f"alpha must be in (0, 1), got {self.alpha}", field="--alpha")
        if not 0 <= self.margin < 0.5:
            raise InputError(f"margin must be in [0, 0.5), got {self.margin}", field="--margin")
        if self.batch < 1:
            raise InputError(f"batch must be at least 1, got {self.batch}", field="--batch")
        if self.max_cases is not None and self.max_cases < 1:
            raise InputError("max cases must be at least 1", field="--max-cases")


@dataclass
class _Progress:
    cs: BettingCS
    trace: list[Point]
    skipped: list[str]
    agent_calls: int = 0
    judge_calls: int = 0
    used: int = 0


def _critical_broken(
    store: Store, run_id: int, batch: list[str], sides: tuple[str, str]
) -> list[str]:
    """Critical cases of ``batch`` the candidate fails and the baseline does not."""
    from arena.evaluation.run_scores import load_run_scores

    baseline, candidate = sides
    failed: dict[str, set[str]] = {baseline: set(), candidate: set()}
    for score in load_run_scores(store, run_id).cases:
        if score.case_id in batch and score.tier == "critical" and not score.passed:
            failed.get(score.variant, set()).add(score.case_id)
    return sorted(failed[candidate] - failed[baseline])


def _savings(full: Any, cases_total: int, used: int) -> Savings:
    agents = sum(v.tasks * v.per_task.calls for v in full.variants)
    agent_cost = sum(v.tasks * v.per_task.cost_usd for v in full.variants)
    judge_calls = full.judge.calls if full.judge else 0
    judge_cost = full.judge.per_call.cost_usd * judge_calls if full.judge else 0.0
    share = (cases_total - used) / cases_total if cases_total else 0.0
    return Savings(
        full_agent_calls=round(agents),
        full_judge_calls=judge_calls,
        full_cost_usd=agent_cost + judge_cost,
        saved_agent_calls=round(agents * share),
        saved_judge_calls=round(judge_calls * share),
        saved_cost_usd=(agent_cost + judge_cost) * share,
    )


def run_sequential(
    store: Store,
    dataset: GoldenDataset,
    baseline: Variant,
    candidate: Variant,
    judge: JudgeSpec | None,
    run: RunOptions | None = None,
    options: SequentialOptions | None = None,
    grader: Any = None,
) -> SequentialReport:
    """Compare ``candidate`` with ``baseline`` case by case and stop once the decision settles.

    Args:
        store: the database the run, its results and battles go to.
        dataset: the golden dataset whose cases run.
        baseline: the reference variant.
        candidate: the variant under test.
        judge: the pairwise judge; None decides on the golden scores instead.
        run: tier or cases, repeats, concurrency (default: ``RunOptions()``).
        options: the question, error level, margin, batch size and seed (default:
            ``SequentialOptions()``).
        grader: the behaviour grader for golden scoring (default: keywords).

    Returns:
        The verdict, where it stopped, the trace of every look and what stopping saved.

    Raises:
        InputError: bad options (checked before anything runs).
    """
    from arena.evaluation.run_scores import make_grader, score_run
    from arena.executors import LocalExecutor
    from arena.plan import plan_run
    from arena.runner import RunOptions, run_suite, select_cases

    run = run or RunOptions()
    options = options or SequentialOptions()
    options.check()
    variants = [candidate, baseline]
    cases = select_cases(dataset, run.tier, run.case_ids)
    order = case_order((c.id for c in cases), options.seed)
    budget = min(options.max_cases or len(order), len(order))
    full = plan_run(
        store, dataset, variants, tier=run.tier, case_ids=run.case_ids, repeats=run.repeats,
        judge=judge,
    )  # fmt: skip
    grader = grader or make_grader(None, store)
    inner = run.executor or LocalExecutor()
    population = len(order) if options.finite else None
    # bets sharpest around half the budget: early stops pay, the guarantee holds regardless
    cs = BettingCS(options.alpha, population=population, horizon=max(budget // 2, 1))
    state = _Progress(cs, [], [])
    stop: Stop | None = None
    critical: list[str] = []
    run_id = 0
    for start in range(0, budget, options.batch):
        batch = order[start : min(start + options.batch, budget)]
        only = OnlyCases(inner, set(batch))
        report = run_suite(store, dataset, variants, replace(run, executor=only, progress=False))
        run_id, state.used = report.run_id, start + len(batch)
        state.agent_calls += report.model_calls
        score_run(store, run_id, grader)
        if options.stop_on_critical:
            critical = _critical_broken(store, run_id, batch, (baseline.name, candidate.name))
            if critical:
                break
        stop = _look(store, run_id, batch, judge, only, run, state, options, budget, variants)
        if stop is not None:
            break
    lower, upper = state.cs.bounds()
    seen = len(state.trace)
    if critical:
        stop = Stop(
            "worse",
            True,
            f"critical case(s) {', '.join(critical)} broken by the candidate (the baseline "
            "passes them): the comparison stops at once, no statistics needed",
        )
    elif stop is None:
        stop = decide(
            float(lower[0]), float(upper[0]), margin=options.margin, seen=seen, budget=seen,
            question=options.question,
        )  # fmt: skip
    sequential = SequentialReport(
        run_id=run_id,
        baseline=baseline.name,
        candidate=candidate.name,
        judge=judge.label if judge else None,
        alpha=options.alpha,
        margin=options.margin,
        population="finite (without replacement)" if options.finite else "sample",
        decision=stop.decision,
        verdict=VERDICTS[stop.decision],
        stopped_because=stop.reason,
        cases_used=state.used,
        cases_total=len(order),
        cases_skipped=state.skipped,
        critical_failures=critical,
        lower=float(lower[0]) if seen else None,
        upper=float(upper[0]) if seen else None,
        mean=float(state.cs.mean()[0]) if seen else None,
        agent_calls=state.agent_calls,
        judge_calls=state.judge_calls,
        savings=_savings(full, len(order), state.used),
        trace=state.trace,
    )
    sequential.summary, sequential.reasons = describe(sequential)
    return sequential


def _look(
    store: Store,
    run_id: int,
    batch: list[str],
    judge: JudgeSpec | None,
    only: OnlyCases,
    run: RunOptions,
    state: _Progress,
    options: SequentialOptions,
    budget: int,
    variants: list[Variant],
) -> Stop | None:
    """Judge the batch, add its outcomes to the sequence; the Stop once settled, else None."""
    from arena.battles import judge_run

    candidate, baseline = (v.name for v in variants)
    if judge is not None:
        judged = judge_run(
            store, run_id, judge, executor=only, concurrency=run.concurrency, progress=False
        )
        state.judge_calls += judged.model_calls
        outcomes = judged_outcomes(store, run_id, baseline, candidate, judge.key)
    else:
        outcomes = golden_outcomes(store, run_id, baseline, candidate)
    for case_id in batch:
        if case_id not in outcomes:
            state.skipped.append(case_id)
            continue
        state.cs.update([outcomes[case_id]])
        low, high = state.cs.bounds()
        lower, upper = float(low[0]), float(high[0])
        state.trace.append(
            Point(
                n=len(state.trace) + 1,
                case_id=case_id,
                outcome=outcomes[case_id],
                mean=float(state.cs.mean()[0]),
                lower=lower,
                upper=upper,
            )
        )
        stop = decide(
            lower,
            upper,
            margin=options.margin,
            seen=len(state.trace),
            budget=budget - len(state.skipped),
            question=options.question,
        )
        if stop.settled:
            return stop
    return None

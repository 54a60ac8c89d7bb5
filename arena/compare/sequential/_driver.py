"""Sequential compare: run, score and judge case by case, and stop once the decision settles.

The sequence's plan (:mod:`arena.compare.sequential._sequence`: the order, seeded from the run
unless ``seed`` is given, the horizon of the bets, alpha, margin, budget) is stored with its
evidence; a later run of the same comparison continues it (the carried outcomes replayed with
the same bets, never re-bet; new cases after them) or refuses a plan that differs. The cases
go ``batch`` at a time: both variants run on the batch (the runner's cache and resume as
always; the run is the full design's run, so tasks never started leave an ordinary "stopped"
run), the results are scored, the batch's critical cases are tested by evidence
(:mod:`arena.sequential._critical`), then the judge judges the batch's pairs, each case's
outcome updates the plan's interval (the known-horizon boundary,
:class:`arena.sequential.SpendingCS`, by default; the betting confidence sequence,
:class:`arena.sequential.BettingCS`, with ``boundary="anytime"`` or ``finite``), and the
stopping rule (:func:`arena.sequential._rule.stop_now`: better, worse, non-inferior, or
undecided because more cases would not settle it) says whether to stop.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from arena.compare.sequential._cases import OnlyCases
from arena.compare.sequential._report import VERDICTS, Savings, SequentialReport, describe
from arena.compare.sequential._sequence import PlanRequest, derive_seed, open_plan, sequence_key
from arena.compare.sequential._steps import Progress, check_critical, look, replay
from arena.compare.sequential._trace import score_snapshot
from arena.sequential import ANYTIME, FUTILITY, SPENDING, THREE_WAY, Question, Stop, decide
from arena.sequential._boundary import BoundaryKind
from arena.sequential._stopping import FUTILE_REASON

if TYPE_CHECKING:
    from arena.golden import GoldenCase, GoldenDataset
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
    seed: int | None = None
    """Seeds the order of the cases; None derives it from the run (dataset and variant
    versions). A given seed is recorded as explicit in the report."""
    batch: int = 1
    """Cases run (and judged) between two looks; larger batches use concurrency better."""
    max_cases: int | None = None
    """The budget in cases (default: every selected case)."""
    finite: bool = False
    """The golden set is the whole population (sampling without replacement): the decision
    is about these cases only, and the interval closes on their exact mean at the end."""
    allow_stochastic_finite: bool = False
    """Let ``finite`` decide about these cases' realised outcomes even when they are
    stochastic (repeats or the judge's two orders disagree); refused otherwise."""
    question: Question = THREE_WAY
    boundary: BoundaryKind | None = None
    """``spending`` (the known-horizon boundary with futility stops: valid up to the budget,
    which a continuation may not raise) or ``anytime`` (the betting sequence: the budget may
    grow later); None: spending for a new sequence, a stored one keeps its own. ``finite``
    always uses the betting sequence."""
    futility: float = FUTILITY
    """Spending boundary: stop once the chance of a decision by the budget is under this (0:
    never)."""
    stop_on_critical: bool = True
    """Test each critical case by evidence and stop at "worse" when one blocks."""
    strict_critical: bool = False
    """With one repeat, a critical case the baseline passes and the candidate fails blocks."""

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
        if self.boundary not in (None, SPENDING, ANYTIME):
            raise InputError(
                f"boundary must be {SPENDING} or {ANYTIME}, got {self.boundary}", field="--boundary"
            )
        if not 0 <= self.futility < 1:
            raise InputError(f"futility must be in [0, 1), got {self.futility}", field="--futility")


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
    from arena.evaluation.run_scores import make_grader
    from arena.executors import LocalExecutor
    from arena.plan import plan_run
    from arena.runner import RunOptions, select_cases

    run = run or RunOptions()
    options = options or SequentialOptions()
    options.check()
    variants = [candidate, baseline]
    cases = select_cases(dataset, run.tier, run.case_ids)
    asked = _request(dataset, cases, (baseline, candidate), judge, run, options)
    plan = open_plan(store, asked)
    full = plan_run(
        store, dataset, variants, tier=run.tier, case_ids=run.case_ids, repeats=run.repeats,
        judge=judge,
    )  # fmt: skip
    critical_ids = {c.id for c in cases if c.tier.value == "critical"}
    state = Progress(
        plan, plan.sequence(), asked.case_hashes, critical_ids, options.question,
        options.allow_stochastic_finite,
    )  # fmt: skip
    stop = replay(state)
    critical = list(plan.critical_blocks) if options.stop_on_critical else []
    if critical:
        state.critical_reasons.append("blocked earlier in this sequence")
    sides = (baseline.name, candidate.name)
    carried = [e.case_id for e in plan.evidence]
    inner = run.executor or LocalExecutor()
    run_id = _run_cases(store, dataset, variants, run, inner, carried, state) if carried else 0
    grader = grader or make_grader(None, store)
    pending = [c for c in plan.order[: plan.budget] if c not in set(carried)]
    if stop is None and not critical:
        for start in range(0, len(pending), options.batch):
            batch = pending[start : start + options.batch]
            only = OnlyCases(inner, set(batch))
            run_id = _run_cases(store, dataset, variants, run, inner, batch, state, grader)
            state.used += len(batch)
            scores = score_snapshot(store, run_id)  # one snapshot per look
            if options.stop_on_critical:
                critical = check_critical(
                    store, run_id, batch, sides, state, options.strict_critical, scores
                )
                if critical:
                    break
            stop = look(store, run_id, batch, judge, only, run.concurrency, state, sides, scores)
            state.save(store, run_id)
            if stop is not None:
                break
    state.save(store, run_id)
    return _report(state, stop, critical, full, run_id, (baseline, candidate), judge, options)


def _request(
    dataset: GoldenDataset,
    cases: list[GoldenCase],
    sides: tuple[Variant, Variant],
    judge: JudgeSpec | None,
    run: RunOptions,
    options: SequentialOptions,
) -> PlanRequest:
    """What this run asks of the sequence (checked against a stored plan)."""
    from arena.golden import case_hash

    baseline, candidate = sides
    key = sequence_key(
        dataset.name,
        baseline.version_hash,
        candidate.version_hash,
        judge.key if judge else None,
        options.question,
    )
    return PlanRequest(
        key=key,
        seed=options.seed,
        derived_seed=derive_seed(dataset, [baseline.version_hash, candidate.version_hash]),
        case_ids=[c.id for c in cases],
        case_hashes={c.id: case_hash(c) for c in cases},
        alpha=options.alpha,
        margin=options.margin,
        max_cases=options.max_cases,
        question=options.question,
        finite=options.finite,
        repeats=run.repeats,
        boundary=options.boundary,
        futility=options.futility,
    )


def _run_cases(
    store: Store,
    dataset: GoldenDataset,
    variants: list[Variant],
    run: RunOptions,
    inner: Any,
    cases: list[str],
    state: Progress,
    grader: Any = None,
) -> int:
    """Run (or replay from the run and the cache) both variants on ``cases``; score them when
    a grader is given. The run id."""
    from arena.evaluation.run_scores import score_run
    from arena.runner import run_suite

    only = OnlyCases(inner, set(cases))
    report = run_suite(store, dataset, variants, replace(run, executor=only, progress=False))
    state.agent_calls += report.model_calls
    if grader is not None:
        score_run(store, report.run_id, grader)
    return report.run_id


def _report(
    state: Progress,
    stop: Stop | None,
    critical: list[str],
    full: Any,
    run_id: int,
    sides: tuple[Variant, Variant],
    judge: JudgeSpec | None,
    options: SequentialOptions,
) -> SequentialReport:
    """The report of where and why the sequence stopped."""
    baseline, candidate = sides
    plan = state.plan
    lower, upper = state.cs.bounds()
    seen = len(state.trace)
    if critical:
        stop = Stop(
            "worse",
            True,
            f"critical case(s) {', '.join(critical)} failed by evidence ("
            + "; ".join(state.critical_reasons)
            + "): the comparison stops at once",
        )
    elif stop is None:
        stop = decide(
            float(lower[0]), float(upper[0]), margin=plan.margin, seen=seen, budget=seen,
            question=options.question,
        )  # fmt: skip
    total = len(plan.order)
    sequential = SequentialReport(
        run_id=run_id,
        baseline=baseline.name,
        candidate=candidate.name,
        judge=judge.label if judge else None,
        alpha=plan.alpha,
        margin=plan.margin,
        population=(
            f"finite: decides about these {total} cases' realised outcomes (without "
            "replacement), not about the agents' expected behaviour on new cases"
            if plan.finite
            else "sample"
        ),
        decision=stop.decision,
        futile=stop.reason.startswith(FUTILE_REASON),
        verdict=VERDICTS[stop.decision],
        stopped_because=stop.reason,
        cases_used=state.used,
        cases_total=total,
        cases_skipped=state.skipped,
        critical_failures=critical,
        lower=float(lower[0]) if seen else None,
        upper=float(upper[0]) if seen else None,
        mean=float(state.cs.mean()[0]) if seen else None,
        agent_calls=state.agent_calls,
        judge_calls=state.judge_calls,
        savings=_savings(full, total, state.used),
        trace=state.trace,
        plan=plan,
    )
    sequential.summary, sequential.reasons = describe(sequential)
    return sequential

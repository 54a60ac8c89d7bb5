"""The steps of a sequential comparison over a stored run: replay the carried evidence, test
the batch's critical cases, judge the batch and add its outcomes to the sequence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arena.compare.sequential._sequence import Evidence, SequencePlan, save_plan
from arena.compare.sequential._trace import (
    Point,
    critical_passes,
    golden_outcomes,
    judged_outcomes,
    score_snapshot,
    stochastic_cases,
)
from arena.errors import InputError
from arena.sequential import THREE_WAY, Question, Stop
from arena.sequential._critical import (
    all_or_none,
    case_share,
    critical_blocks,
    deterministic_failure,
    pattern_bound,
)
from arena.sequential._rule import Sequence, stop_now

if TYPE_CHECKING:
    from arena.compare.sequential._cases import OnlyCases
    from arena.scoring import CaseScore
    from arena.storage import Store
    from judges import JudgeSpec

#: The flag that lets ``--finite`` decide about stochastic outcomes anyway.
STOCHASTIC_FINITE_FLAG = "--allow-stochastic-finite"


@dataclass
class Progress:
    """The sequence so far: its plan and evidence, the interval, the trace, the counts."""

    plan: SequencePlan
    cs: Sequence
    hashes: dict[str, str]
    critical_ids: set[str]
    question: Question = THREE_WAY
    allow_stochastic_finite: bool = False
    trace: list[Point] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    critical_reasons: list[str] = field(default_factory=list)
    agent_calls: int = 0
    judge_calls: int = 0
    used: int = 0

    def add(self, case_id: str, outcome: float) -> tuple[float, float]:
        """One outcome into the sequence and the trace; the interval after it."""
        self.cs.update([outcome])
        low, high = self.cs.bounds()
        lower, upper = float(low[0]), float(high[0])
        self.trace.append(
            Point(
                n=len(self.trace) + 1,
                case_id=case_id,
                outcome=outcome,
                mean=float(self.cs.mean()[0]),
                lower=lower,
                upper=upper,
            )
        )
        return lower, upper

    def stop(self, budget: int) -> Stop:
        """The decision after the outcomes so far, ``budget`` cases allowed (futility on the
        spending boundary included)."""
        return stop_now(
            self.cs, self.plan.boundary_plan(), seen=len(self.trace), budget=budget,
            question=self.question,
        )  # fmt: skip

    def save(self, store: Store, run_id: int) -> None:
        """Store the plan with the evidence so far (a later run continues from it)."""
        if run_id and run_id not in self.plan.runs:
            self.plan.runs.append(run_id)
        save_plan(store, self.plan)


def replay(state: Progress) -> Stop | None:
    """Feed the carried evidence, in its order, with the plan's bets (nothing is re-bet: the
    same outcomes and bets give the same sequence, futility stops included); the decision it
    had reached, if any."""
    budget = state.plan.budget
    for seen in state.plan.evidence:
        state.add(seen.case_id, seen.outcome)
        state.used += 1
        stop = state.stop(budget)
        # the budget never ends a replay: a carried sequence only stops where it had settled
        if stop.settled and (stop.decision != "undecided" or len(state.trace) < budget):
            return stop
    return None


def check_critical(
    store: Store,
    run_id: int,
    batch: list[str],
    sides: tuple[str, str],
    state: Progress,
    strict: bool,
    scores: list[CaseScore] | None = None,
) -> list[str]:
    """Test the batch's critical cases (each once, docs of :mod:`arena.sequential._critical`);
    the ones that block. ``scores``: the look's snapshot of the run's scores."""
    plan = state.plan
    fresh = (set(batch) & state.critical_ids) - set(plan.critical_tested)
    blocked = []
    passes = critical_passes(store, run_id, *sides, fresh, scores=scores)
    for case, (kb, nb, kc, nc) in passes.items():
        untested = len(state.critical_ids - set(plan.critical_tested))
        share = case_share(plan.alpha, plan.critical_spent, untested)
        plan.critical_spent += share
        plan.critical_tested.append(case)
        if not bool(critical_blocks(kb, nb, kc, nc, alpha_case=share, strict=strict)):
            continue
        blocked.append(case)
        if bool(deterministic_failure(kb, nb, kc, nc, alpha_case=share)):
            how = f"deterministic: at most {float(pattern_bound(nb, nc)):.2g} between equal agents"
        elif bool(all_or_none(kb, nb, kc, nc)) and strict:
            how = "deterministic (strict mode: the agents are declared deterministic)"
        else:
            how = f"the exact one-sided test is significant at {share / 2:.2g}"
        state.critical_reasons.append(
            f"{case}: baseline passes {kb}/{nb}, candidate {kc}/{nc}, {how}"
        )
    plan.critical_blocks.extend(blocked)
    return blocked


def look(
    store: Store,
    run_id: int,
    batch: list[str],
    judge: JudgeSpec | None,
    only: OnlyCases,
    concurrency: int,
    state: Progress,
    sides: tuple[str, str],
    scores: list[CaseScore] | None = None,
) -> Stop | None:
    """Judge the batch, add its outcomes to the sequence; the Stop once settled, else None.
    ``scores``: the look's snapshot of the run's scores (:func:`score_snapshot`), loaded once
    here when not given."""
    from arena.battles import judge_run

    baseline, candidate = sides
    scores = score_snapshot(store, run_id) if scores is None else scores
    if judge is not None:
        judged = judge_run(store, run_id, judge, executor=only, concurrency=concurrency,
                           progress=False)  # fmt: skip
        state.judge_calls += judged.model_calls
        outcomes = judged_outcomes(store, run_id, baseline, candidate, judge.key)
    else:
        outcomes = golden_outcomes(store, run_id, baseline, candidate, scores)
    if state.plan.finite and not state.allow_stochastic_finite:
        _refuse_stochastic(store, run_id, batch, judge, state, sides, scores)
    for case_id in batch:
        if case_id not in outcomes:
            state.skipped.append(case_id)
            continue
        state.add(case_id, outcomes[case_id])
        state.plan.evidence.append(
            Evidence(case_id=case_id, case_hash=state.hashes[case_id], outcome=outcomes[case_id])
        )
        stop = state.stop(state.plan.budget - len(state.skipped))
        if stop.settled:
            return stop
    return None


def _refuse_stochastic(
    store: Store,
    run_id: int,
    batch: list[str],
    judge: JudgeSpec | None,
    state: Progress,
    sides: tuple[str, str],
    scores: list[CaseScore],
) -> None:
    """--finite decides about realised outcomes: refuse when they are not fixed numbers."""
    noisy = stochastic_cases(store, run_id, *sides, judge.key if judge else None, scores)
    case = next((c for c in batch if c in noisy), None)
    if case is None:
        return
    state.save(store, run_id)
    raise InputError(
        f"--finite decides about these cases' realised outcomes, but the outcome of case "
        f"{case} is stochastic ({noisy[case]}), so the realised mean is not the question the "
        f"report answers. Drop --finite (the default treats the cases as a sample), or pass "
        f"{STOCHASTIC_FINITE_FLAG} to decide about these realised outcomes anyway",
        case=case,
        field="--finite",
    )

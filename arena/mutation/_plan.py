"""Before spending: what a mutation pass would run and cost (``arena mutate --plan``).

The original's run is planned as ``arena plan`` plans it (what the database holds is reused);
each mutant's tasks are estimated from the stored history of its model
(:func:`arena.plan.plan_run`).
A mutant runs only the cases the original passes and, unless ``full``, stops after the batch
holding its first kill, so the pass costs between ``at_least`` (every mutant killed by its
next batch) and ``at_most`` (every mutant runs every case left). What a stored pass already
ran counts as done, read under the same keys the pass uses: when the original's run is
stored, a mutant whose batches are stored up to its kill (or to its last case) is ``stored``
and planned at nothing, so a rerun of a stored pass plans zero runs; a mutant stored in part
is planned at the tasks of its batches not yet stored (the cases the original passes).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from arena.golden import GoldenDataset
from arena.mutation._base import MutationOperator
from arena.mutation._mutant import Mutant
from arena.mutation._pass import MutationOptions, PassState, build_mutants
from arena.mutation._verdict import score, with_case_hashes
from arena.plan import Plan, plan_run
from arena.plan._plan import pending_tasks, stored_run
from arena.records.results import RunResult
from arena.runner import select_cases
from arena.runner._tasks import plan_tasks, run_key
from arena.storage import Store
from arena.variants.variant import Variant


class Bound(BaseModel):
    """Tasks, model calls, cost and wall time of one bound of the mutants' share."""

    tasks: int
    calls: int
    cost_usd: float
    wall_s: float


class MutationPlan(BaseModel):
    """What ``arena mutate`` would do: the original's run, then the mutants' between bounds."""

    mutants: int
    by_operator: dict[str, int] = Field(description="Mutants per operator.")
    stored: int = Field(0, description="Mutants a stored pass already ran to their verdict.")
    cases: int = Field(description="The cases selected (a mutant runs those the original passes).")
    original: Plan
    at_least: Bound
    at_most: Bound


def _bound(plan: Plan, tasks: int) -> Bound:
    """``tasks`` of the mutants' runs, their calls, cost and time at the rates of ``plan``."""
    share = tasks / plan.to_run if plan.to_run else 0.0
    return Bound(
        tasks=tasks,
        calls=round(sum(v.calls for v in plan.variants) * share),
        cost_usd=plan.cost_usd * share,
        wall_s=plan.wall_s * share,
    )


def _left_of(
    store: Store, dataset: GoldenDataset, variant: Variant, ids: list[str], repeats: int
) -> tuple[int, list[RunResult] | None]:
    """How many tasks of the run the pass makes of ``variant`` on ``ids`` are not stored,
    and its stored results when none is left (None otherwise)."""
    cases = select_cases(dataset, "all", ids)
    run_id = stored_run(store, run_key(dataset, [variant], cases, repeats))
    done = {} if run_id is None else store.finished_results(run_id)
    left = len(pending_tasks(plan_tasks([variant], cases, repeats), done, retry_errors=False))
    return left, None if left else list(done.values())


def _left(state: PassState, op: MutationOperator, mutant: Mutant, cases: list) -> list[int]:
    """The tasks not yet stored of each batch the mutant has still to run, from the first
    one not stored in full ([]: its stored batches reach its verdict, a kill or its last)."""
    batches = state.batches(op, mutant, cases)
    run_dataset = state.run_dataset(op, mutant)
    repeats = state.options.repeats
    results: list[RunResult] = []
    for position, batch in enumerate(batches, 1):
        left, found = _left_of(state.store, run_dataset, mutant, batch, repeats)
        if found is None:
            later = [
                _left_of(state.store, run_dataset, mutant, b, repeats)[0]
                for b in batches[position:]
            ]
            return [left, *later]
        results += with_case_hashes(found, state.dataset.test_cases)
        broken, blocks = state.judge(results, complete=position == len(batches))
        if (broken or blocks) and not state.options.full:
            return []
    return []


def _pending(
    store: Store | None,
    dataset: GoldenDataset,
    variant: Variant,
    options: MutationOptions,
    built: list[tuple[MutationOperator, Mutant]],
) -> list[tuple[Mutant, int, int]]:
    """(mutant, fewest tasks, most tasks) of every mutant a stored pass has not run to its
    verdict; without the original's stored run every mutant, on every case selected."""
    ids = [c.id for c in select_cases(dataset, options.tier, options.case_ids)]
    repeats = options.repeats
    batch = len(ids) if options.full else min(len(ids), max(1, options.concurrency))
    unknown = [(m, batch * repeats, len(ids) * repeats) for _, m in built]
    first = None if store is None else _left_of(store, dataset, variant, ids, repeats)[1]
    if store is None or first is None:
        return unknown
    original = score(first, dataset)
    passing = [dataset.case(i) for i in ids if original.passed.get(i)]
    if not passing:
        return unknown
    state = PassState(store, dataset, options, original)
    pending = []
    for op, m in built:
        left = _left(state, op, m, passing)
        if left:
            pending.append((m, sum(left) if options.full else left[0], sum(left)))
    return pending


def plan_mutation(
    store: Store | None,
    dataset: GoldenDataset,
    variant: Variant,
    options: MutationOptions | None = None,
    *,
    measure: bool = True,
) -> MutationPlan:
    """The plan of :func:`arena.mutation.run_mutation` with these options (nothing is run).

    Args:
        store: the database (None: an empty one).
        dataset: the golden set.
        variant: the variant to mutate.
        options: as for the pass.
        measure: time a local model no stored run has timed (one short request).
    """
    options = options or MutationOptions()
    cases = select_cases(dataset, options.tier, options.case_ids)
    built = build_mutants(variant, cases, options.operators, options.weaker_model)
    ids = [c.id for c in cases]

    def plan(variants: list[Variant]) -> Plan:
        return plan_run(
            store, dataset, variants, case_ids=ids, repeats=options.repeats,
            concurrency=options.concurrency, measure=measure,
        )  # fmt: skip

    original = plan([variant])
    counts: dict[str, int] = {}
    for _, m in built:
        counts[m.mutation.operator] = counts.get(m.mutation.operator, 0) + 1
    pending = _pending(store, dataset, variant, options, built)
    stored = len(built) - len(pending)
    if not pending:
        empty = Bound(tasks=0, calls=0, cost_usd=0.0, wall_s=0.0)
        return MutationPlan(
            mutants=len(built), by_operator=counts, stored=stored, cases=len(cases),
            original=original, at_least=empty, at_most=empty,
        )  # fmt: skip
    every = plan([m for m, _, _ in pending])  # the rates of a task of these mutants
    least, most = sum(p[1] for p in pending), sum(p[2] for p in pending)
    return MutationPlan(
        mutants=len(built), by_operator=counts, stored=stored, cases=len(cases),
        original=original, at_least=_bound(every, least), at_most=_bound(every, most),
    )  # fmt: skip

"""Before spending: what a mutation pass would run and cost (``arena mutate --plan``).

The original's run is planned as ``arena plan`` plans it (what the database holds is reused);
each mutant's tasks are estimated from the stored history of its model
(:func:`arena.plan.plan_run`).
A mutant runs only the cases the original passes and, unless ``full``, stops after the batch
holding its first kill, so the pass costs between ``at_least`` (every mutant killed by its
first batch) and ``at_most`` (every mutant runs every case). Reruns of a stored pass reuse its
results and send nothing, which the mutants' figures do not count.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from arena.golden import GoldenDataset
from arena.mutation._pass import MutationOptions, build_mutants
from arena.plan import Plan, plan_run
from arena.runner import select_cases
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
    cases: int = Field(description="The cases selected (a mutant runs those the original passes).")
    original: Plan
    at_least: Bound
    at_most: Bound


def _bound(plan: Plan, share: float) -> Bound:
    return Bound(
        tasks=round(plan.to_run * share),
        calls=round(sum(v.calls for v in plan.variants) * share),
        cost_usd=plan.cost_usd * share,
        wall_s=plan.wall_s * share,
    )


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
    mutants = [m for _, m in build_mutants(variant, cases, options.operators, options.weaker_model)]
    ids = [c.id for c in cases]

    def plan(variants: list[Variant]) -> Plan:
        return plan_run(
            store, dataset, variants, case_ids=ids, repeats=options.repeats,
            concurrency=options.concurrency, measure=measure,
        )  # fmt: skip

    original = plan([variant])
    counts: dict[str, int] = {}
    for m in mutants:
        counts[m.mutation.operator] = counts.get(m.mutation.operator, 0) + 1
    if not mutants:
        empty = Bound(tasks=0, calls=0, cost_usd=0.0, wall_s=0.0)
        return MutationPlan(
            mutants=0, by_operator={}, cases=len(cases), original=original,
            at_least=empty, at_most=empty,
        )  # fmt: skip
    every = plan(list(mutants))
    first = 1.0 if options.full else min(len(cases), max(1, options.concurrency)) / len(cases)
    return MutationPlan(
        mutants=len(mutants), by_operator=counts, cases=len(cases), original=original,
        at_least=_bound(every, first), at_most=_bound(every, 1.0),
    )  # fmt: skip

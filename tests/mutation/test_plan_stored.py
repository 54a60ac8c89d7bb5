"""``arena mutate --plan`` after a pass stopped part-way: a mutant with some batches stored is
planned at the cases it has left, and the bounds are what the rerun really runs."""

from __future__ import annotations

import pytest

from arena.golden import GoldenDataset
from arena.mutation import MutantTools, MutationOptions, plan_mutation, run_mutation
from arena.mutation._pass import PassState, build_mutants
from arena.mutation._verdict import score
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.system


def _stored_tasks(store: Store) -> int:
    return sum(len(store.finished_results(run.id)) for run in store.runs())


def test_a_mutant_stored_in_part_is_planned_at_the_cases_it_has_left(
    shop: tuple[Variant, GoldenDataset], store: Store
) -> None:
    variant, dataset = shop
    options = MutationOptions(operators=["tool_empty"], dataset_path="shop.json")
    # What an interrupted pass leaves: the original's run and the first batch of one mutant.
    first = run_suite(
        store, dataset, [variant], RunOptions(case_ids=[c.id for c in dataset.test_cases])
    )
    original = score(first.results, dataset)
    passing = [c for c in dataset.test_cases if original.passed.get(c.id)]
    assert len(passing) == 5
    state = PassState(store, dataset, options, original)
    op, mutant = build_mutants(variant, passing, options.operators)[0]
    batch = state.batches(op, mutant, passing)[0]
    wrap = MutantTools(mutant.mutation)
    run_suite(
        store, state.run_dataset(op, mutant), [mutant], RunOptions(case_ids=batch, wrap_tools=wrap)
    )

    plan = plan_mutation(store, dataset, variant, options, measure=False)
    assert (plan.mutants, plan.stored, plan.original.to_run) == (3, 0, 0)
    # three mutants, batches of 2: the stored one has 3 cases left, the others all 5
    assert plan.at_most.tasks == 3 + 5 + 5 and plan.at_least.tasks == 2 + 2 + 2

    before = _stored_tasks(store)
    report = run_mutation(store, dataset, variant, options)
    assert not any(m.killed for m in report.mutants)  # survivors run every case they have left
    assert _stored_tasks(store) - before == plan.at_most.tasks

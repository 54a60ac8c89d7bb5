"""A mutation pass of the shop team's agent (a compiled sub-graph with a ToolNode, from a new
user's trial, issue 39): what a mutant's trajectory records and why its survivors survived."""

from __future__ import annotations

import pytest

from arena.golden import GoldenDataset
from arena.mutation import Mutation, make_mutant
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.system


def _calls(store: Store, variant: Variant, dataset: GoldenDataset, mutation: Mutation) -> list:
    mutant = make_mutant(variant, mutation)
    report = run_suite(store, dataset, [mutant], RunOptions(case_ids=["S-1"], concurrency=1))
    (result,) = report.results
    return [(s.tool, s.observation) for s in result.steps if s.tool]


def test_a_stale_tool_records_only_the_call_the_agent_made(
    shop: tuple[Variant, GoldenDataset], store: Store
) -> None:
    variant, dataset = shop
    stale = Mutation(operator="tool_stale", target="check_stock")
    assert _calls(store, variant, dataset, stale) == [("check_stock", "blue mug: 19 in stock")]


def test_swapped_tools_record_only_the_call_the_agent_made(
    shop: tuple[Variant, GoldenDataset], store: Store
) -> None:
    variant, dataset = shop
    swap = Mutation(operator="tools_swapped", target="check_stock<->get_price",
                    settings={"pair": ["check_stock", "get_price"]})  # fmt: skip
    assert _calls(store, variant, dataset, swap) == [("check_stock", "blue mug: EUR 9.50")]

"""A mutation pass of the shop team's agent (a compiled sub-graph with a ToolNode, from a new
user's trial, issue 39): what a mutant's trajectory records and why its survivors survived."""

from __future__ import annotations

import pytest

from arena.golden import GoldenDataset
from arena.mutation import (
    MutantResult,
    MutantTools,
    Mutation,
    MutationOptions,
    make_mutant,
    run_mutation,
)
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.system


def _calls(store: Store, variant: Variant, dataset: GoldenDataset, mutation: Mutation) -> list:
    mutant = make_mutant(variant, mutation)
    options = RunOptions(case_ids=["S-1"], concurrency=1, wrap_tools=MutantTools(mutation))
    report = run_suite(store, dataset, [mutant], options)
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


def _pass(
    store: Store, variant: Variant, dataset: GoldenDataset, *operators: str, cases: str = ""
) -> dict[str, MutantResult]:
    options = MutationOptions(
        operators=list(operators), dataset_path="golden/shop.json", full=True,
        case_ids=cases.split(",") if cases else None,
    )  # fmt: skip
    return {m.id: m for m in run_mutation(store, dataset, variant, options).mutants}


def test_a_swap_survives_because_the_answer_ignored_the_result(
    shop: tuple[Variant, GoldenDataset], store: Store
) -> None:
    swap = _pass(store, *shop, "tools_swapped")["tools_swapped:check_stock<->get_price"]
    assert swap.why_survived == (
        "S-1, S-2, S-5 expect what `check_stock` or `get_price` returned, yet still passed with "
        "the other tool's result: the agent's answer did not depend on the tool's result"
    )
    assert swap.proposal is None  # they check both tools' values already; no expected_tools


def test_a_proposal_edits_the_case_with_a_value_the_query_lacks(
    shop: tuple[Variant, GoldenDataset], store: Store
) -> None:
    variant, dataset = shop
    loose = [
        c.model_copy(update={"expected_output_contains": []}) if c.id == "S-3" else c
        for c in dataset.test_cases
    ]  # S-3 checks only that track_order was called
    dataset = dataset.model_copy(update={"test_cases": loose})
    empty = _pass(store, variant, dataset, "tool_empty", cases="S-3")["tool_empty:track_order"]
    assert empty.why_survived == (
        "no case expects `track_order`'s output: S-3 checks only that `track_order` was called"
    )
    assert empty.proposal == {  # not '4471', the order id the question already holds
        "dataset": "golden/shop.json",
        "edits": [{"case": "S-3", "field": "expected_output_contains", "add": "2026-12-01"}],
    }


def test_a_case_to_write_takes_the_tools_category_and_an_id_of_its_own(
    shop: tuple[Variant, GoldenDataset], store: Store
) -> None:
    found = _pass(store, *shop, "tool_raises", "tool_empty", cases="S-1,S-2")
    raises, empty = found["tool_raises:track_order"], found["tool_empty:track_order"]
    assert raises.proposal is not None and empty.proposal is not None
    assert (raises.proposal["case"]["category"], empty.proposal["case"]["category"]) == (
        "orders", "orders"
    )  # S-3's, the case that expects track_order  # fmt: skip
    assert (raises.proposal["case"]["id"], empty.proposal["case"]["id"]) == ("OR-001", "OR-002")
    assert found["tool_empty:check_stock"].proposal is None  # S-1 already expects its 12

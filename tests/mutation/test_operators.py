"""The operators: each tool operator on every tool, config operators on the config, the
faulty tools themselves, mutants' own versions, and a plugin's operator."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tools import tool

from arena.errors import InputError
from arena.extend import MUTATION_OPERATORS, MutationOperator, mutation_operator
from arena.golden import GoldenDataset
from arena.models import CachingChatModel
from arena.mutation import Mutant, MutantTools, Mutation, build_mutants, make_mutant, operator
from arena.mutation._tools import MutantToolError, empty, perturb, raising, stale, swapped
from arena.runner._agents import AgentCache
from arena.sandbox import Sandbox
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

TOOLS = ["lookup_user", "open_ticket", "check_status"]


@tool
def add(a: int, b: int) -> str:
    """Add two numbers."""
    return f"{a} + {b} = {a + b}"


@tool
def greet(name: str) -> str:
    """Greet someone."""
    return f"hello {name}"


def test_every_tool_operator_is_applied_to_every_tool(desk: tuple[Variant, GoldenDataset]) -> None:
    variant, dataset = desk
    built = build_mutants(variant, dataset.test_cases)
    ids = {m.mutation.id for _, m in built}
    for name in ("tool_raises", "tool_empty", "tool_stale", "tool_removed"):
        assert {f"{name}:{t}" for t in TOOLS} <= ids
    swaps = {m.mutation.target for _, m in built if m.mutation.operator == "tools_swapped"}
    assert swaps == {"lookup_user<->open_ticket", "lookup_user<->check_status",
                     "open_ticket<->check_status"}  # fmt: skip
    config = {i for i in ids if not i.startswith("tool")}
    # model_weaker: the local model's weaker one; user_turn_dropped: no conversation case
    assert config == {"prompt_dropped:system_prompt", "prompt_truncated:system_prompt",
                      "model_weaker:model", "max_steps_one:max_steps"}  # fmt: skip


def test_config_mutants_change_only_their_field(desk: tuple[Variant, GoldenDataset]) -> None:
    variant, dataset = desk
    by_id = {m.mutation.id: m for _, m in build_mutants(variant, dataset.test_cases)}
    assert by_id["prompt_dropped:system_prompt"].system_prompt == ""
    half = by_id["prompt_truncated:system_prompt"].system_prompt
    assert (
        half
        and variant.system_prompt.startswith(half)
        and len(half) <= len(variant.system_prompt) / 2
    )
    assert by_id["model_weaker:model"].model.spec == "local:qwen2.5-coder-0.5b"
    assert by_id["max_steps_one:max_steps"].max_steps == 1
    assert by_id["tool_removed:open_ticket"].tools == ["lookup_user", "check_status"]
    assert by_id["tool_raises:open_ticket"].model_dump(exclude={"name", "description"}) == (
        variant.model_dump(exclude={"name", "description"})
    )  # a tool mutant wraps the tool, its config is the original's


def test_mutants_have_versions_of_their_own(desk: tuple[Variant, GoldenDataset]) -> None:
    variant, dataset = desk
    hashes = [m.version_hash for _, m in build_mutants(variant, dataset.test_cases)]
    assert variant.version_hash not in hashes and len(set(hashes)) == len(hashes)


def test_a_stored_mutant_reads_back_as_a_plain_variant(
    desk: tuple[Variant, GoldenDataset], store: Store
) -> None:
    variant, _ = desk
    mutant = make_mutant(variant, Mutation(operator="tool_raises", target="open_ticket"))
    store.ensure_variant(mutant)
    [stored] = store.variants()
    assert stored.name == "baseline.tool_raises.open_ticket"
    assert stored.version_hash == mutant.version_hash != variant.version_hash


def test_the_faulty_tools() -> None:
    with pytest.raises(MutantToolError):
        raising(add).invoke({"a": 1, "b": 2})
    assert empty(add).invoke({"a": 1, "b": 2}) == ""
    assert perturb("2 + 40 = 42.0") == "4 + 61 = 64.0"
    assert stale(add).invoke({"a": 2, "b": 40}) == "4 + 61 = 64"
    wrong = stale(greet)  # no number: the previous call's result (empty on the first)
    assert wrong.invoke({"name": "ada"}) == ""
    assert wrong.invoke({"name": "bob"}) == "hello ada"
    as_add, as_greet = swapped(add, greet)
    assert as_add.name == "add" and as_add.invoke({"name": "x"}) == "hello x"
    assert as_greet.name == "greet" and as_greet.invoke({"a": 1, "b": 1}) == "1 + 1 = 2"


def test_a_tool_mutant_wraps_only_its_target(desk: tuple[Variant, GoldenDataset]) -> None:
    variant, _ = desk
    mutant = make_mutant(variant, Mutation(operator="tool_empty", target="add"))
    wrapped = MutantTools(mutant.mutation)([add, greet])
    assert wrapped[1] is greet and wrapped[0].invoke({"a": 1, "b": 2}) == ""
    assert not hasattr(variant, "agent_tools") and not hasattr(mutant, "agent_tools")


def test_an_unknown_operator_names_the_flag() -> None:
    with pytest.raises(InputError, match="unknown mutation operator 'tool_melts'") as err:
        operator("tool_melts")
    assert err.value.field == "--operators"


def test_a_plugin_registers_its_own_operator(desk: tuple[Variant, GoldenDataset]) -> None:
    variant, dataset = desk

    @mutation_operator("temperature_hot")
    class Hot(MutationOperator):
        """The model samples at temperature 1."""

        def mutants(self, variant: Variant, targets: object) -> list[Mutant]:
            model = {**variant.model.model_dump(), "temperature": 1.0}
            return [make_mutant(variant, self.mutation("model"), model=model)]

    assert (
        MUTATION_OPERATORS.summaries()["temperature_hot"] == "The model samples at temperature 1."
    )
    [(op, mutant)] = build_mutants(variant, dataset.test_cases, ["temperature_hot"])
    assert op.name == "temperature_hot" and mutant.model.temperature == 1.0


def test_the_built_in_agents_tools_are_wrapped_too(tmp_path: Path) -> None:
    react = Variant.model_validate(
        {"name": "r", "model": {"spec": "fake:echo"}, "tools": ["calculate", "write_file"]}
    )
    stale_calc = make_mutant(react, Mutation(operator="tool_stale", target="calculate"))
    cache = AgentCache()
    model = CachingChatModel(identity="x", namespace="repeat=0")
    sandbox = Sandbox.create(tmp_path / "sandboxes" / "t")
    real, _ = cache.tools(react, model, sandbox)
    wrap = MutantTools(stale_calc.mutation)
    wrong, writer = cache.tools(stale_calc, model, sandbox, wrap)
    assert asyncio.run(real.ainvoke({"expression": "25% of 1200"})) == "300"
    assert asyncio.run(wrong.ainvoke({"expression": "25% of 1200"})) == "451"
    assert wrong.invoke({"expression": "2 + 2"}) == "7"
    assert writer.name == "write_file" and cache.tools(stale_calc, model, sandbox, wrap)[0] is wrong


def test_swapped_tools_run_the_other_tool_async_too() -> None:
    as_add, as_greet = swapped(add, greet)
    assert asyncio.run(as_add.ainvoke({"name": "ada"})) == "hello ada"
    assert asyncio.run(as_greet.ainvoke({"a": 2, "b": 3})) == "2 + 3 = 5"


class _ToolStarts(BaseCallbackHandler):
    """The tool runs a run's callbacks see, as the runner's trajectory recorder sees them."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, **kwargs: Any) -> None:
        self.names.append(serialized.get("name", ""))


def test_a_wrapped_tool_runs_the_real_one_unseen_sync_and_async() -> None:
    as_add, _ = swapped(add, greet)
    for wrapper, args in ((stale(add), {"a": 2, "b": 40}), (as_add, {"name": "ada"})):
        seen = _ToolStarts()
        wrapper.invoke(args, config={"callbacks": [seen]})
        asyncio.run(wrapper.ainvoke(args, config={"callbacks": [seen]}))
        assert seen.names == ["add", "add"]  # the wrapper's own run, once per call

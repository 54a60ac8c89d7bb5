"""``user_turn_dropped`` on the kitchen example's dialogues (scripted models): the user gives
up after the first turn, and the critical dialogue whose later turns expect the conversion
and the oven temperature kills the mutant."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.golden import load_dataset
from arena.mutation import MutationOptions, build_mutants, run_mutation
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.system

KITCHEN = Path(__file__).resolve().parents[2] / "examples" / "own-agent"


def test_the_user_giving_up_after_one_turn_is_caught(store: Store) -> None:
    from arena.models._fake_files import use_fake_scripts

    use_fake_scripts(KITCHEN / "fake_models.yaml")
    variant = load_variant(KITCHEN / "variants" / "baseline.yaml")
    dataset = load_dataset(KITCHEN / "golden" / "kitchen-dialogues.json")
    [(op, mutant)] = build_mutants(variant, dataset.test_cases, ["user_turn_dropped"])
    short = op.run_case(dataset.case("KD-1"), mutant.mutation)
    assert short.conversation is not None and len(short.conversation.turns) == 1
    simulated = op.run_case(dataset.case("KD-3"), mutant.mutation)
    assert simulated.conversation is not None and simulated.conversation.user is not None
    assert simulated.conversation.user.max_turns == 1

    options = MutationOptions(operators=["user_turn_dropped"], case_ids=["KD-1"])
    [found] = run_mutation(store, dataset, variant, options).mutants
    assert found.killed and found.killed_by == ["KD-1"], found


def test_no_conversation_no_mutant() -> None:
    variant = load_variant(KITCHEN / "variants" / "baseline.yaml")
    dataset = load_dataset(KITCHEN / "golden" / "kitchen.json")
    assert build_mutants(variant, dataset.test_cases, ["user_turn_dropped"]) == []

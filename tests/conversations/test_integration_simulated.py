"""A simulated-user conversation on the real local model, end to end: the kitchen helper of
examples/own-agent against the simulated user of its case KD-3 (both on the local 1.5B
model), at most 3 user turns; the dialogue is stored, and a rerun makes zero model calls,
the agent's and the simulated user's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from arena.golden import GoldenDataset, load_dataset
from arena.records.dialogue import SIMULATOR_ERROR_KINDS
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.integration

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "own-agent"
USER_MODEL = "local:qwen2.5-coder-1.5b"


def simulated_case_only() -> GoldenDataset:
    """golden/kitchen-dialogues.json cut to KD-3, its simulated user, at most 3 user turns."""
    shipped = load_dataset(EXAMPLE / "golden" / "kitchen-dialogues.json")
    (case,) = [c for c in shipped.test_cases if c.id == "KD-3"]
    conversation = case.conversation
    assert conversation is not None and conversation.user is not None
    user = conversation.user.model_copy(update={"max_turns": 3})
    short = case.model_copy(
        update={"conversation": conversation.model_copy(update={"user": user, "expect": []})}
    )
    return shipped.model_copy(update={"test_cases": [short], "content_hash": None})


def test_a_simulated_conversation_runs_is_stored_and_replays_from_the_cache(
    local_db_url: str,
) -> None:
    shipped = load_variant(EXAMPLE / "variants" / "baseline.yaml")
    # CI's two cores are shared: a slow reply is no failure of what this test proves
    variant = shipped.model_copy(
        update={"model": shipped.model.model_copy(update={"timeout": 900})}
    )
    dataset = simulated_case_only()
    case = dataset.test_cases[0]
    store = Store(local_db_url)
    options = RunOptions(progress=False, case_timeout_s=900, user_model=USER_MODEL)

    first = run_suite(store, dataset, [variant], options)
    (result,) = store.results(first.run_id)  # read back: the dialogue was stored
    assert result.error is None, result.error
    dialogue = result.dialogue
    assert dialogue is not None and dialogue.user_model == USER_MODEL
    assert dialogue.turns[0].user == case.input and dialogue.turns[0].reply.strip()
    assert dialogue.simulator_calls >= 1  # the simulated user spoke (or failed) at least once
    if dialogue.simulator_error is None:
        assert dialogue.ended_by in {"user", "max_turns"}
        assert len(dialogue.turns) >= 2 or dialogue.ended_by == "user"
        assert all(t.user.strip() and "###STOP###" not in t.user for t in dialogue.turns)
    else:  # a small model may break the simulation: recorded as such, not as the agent's error
        # (measured: the 1.5B user stops at once after the agent answers "about 2 cups of
        # rice", its stop condition asking for grams: an early_stop)
        assert dialogue.ended_by == "simulator_error"
        assert dialogue.simulator_error_kind in SIMULATOR_ERROR_KINDS
    assert len(dialogue.turns) <= 3
    assert result.model_calls == sum(t.model_calls for t in dialogue.turns) >= len(dialogue.turns)

    again = run_suite(store, dataset, [variant], replace(options, rerun=True))
    assert again.run_id != first.run_id
    (replayed,) = again.results
    assert replayed.dialogue is not None
    assert again.model_calls == 0
    assert (replayed.fresh_model_calls, replayed.dialogue.simulator_fresh_calls) == (0, 0)
    assert replayed.dialogue.simulator_calls == dialogue.simulator_calls
    assert [(t.user, t.reply) for t in replayed.dialogue.turns] == [
        (t.user, t.reply) for t in dialogue.turns
    ]

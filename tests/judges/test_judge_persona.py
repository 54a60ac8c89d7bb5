"""Judges configurable per dataset: the persona and rubric come from the dataset's ``judge:``
block or the judge spec, reach every mode's system prompt, and key the verdict cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles import judge_run
from arena.errors import InputError
from arena.golden import GoldenDataset, case_hash, load_dataset
from arena.models import ModelConfig, register_fake
from arena.paths import data_dir
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from judges import JudgeSpec, PairRequest, get_mode, parse_judge, verdict_key
from judges._prompts import DEFAULT_PERSONA

pytestmark = pytest.mark.unit

KITCHEN = Path(__file__).resolve().parents[2] / "examples" / "own-agent" / "golden" / "kitchen.json"
BLOCK = {"persona": "a kitchen assistant", "rubric": "Exact quantities matter most."}


def _dataset(judge: dict[str, str] | None = None) -> dict[str, object]:
    doc: dict[str, object] = {
        "name": "t",
        "available_tools": [],
        "test_cases": [
            {
                "id": "K-1",
                "input": "2 cups of flour in grams?",
                "category": "happy_path",
                "expected_output_contains": ["240"],
            }
        ],
    }
    if judge is not None:
        doc["judge"] = judge
    return doc


def _systems(store: Store, spec: JudgeSpec, judge: dict[str, str] | None) -> set[str]:
    register_fake("good", ["It is 240 g."], cycle=True)
    register_fake("bad", ["About 300 g."], cycle=True)
    seen: set[str] = set()

    def judge_model(messages: list[BaseMessage]) -> AIMessage:
        seen.add(str(messages[0].content))
        return AIMessage("Fine. [[A=B]]")

    register_fake("judge", [judge_model], cycle=True)
    dataset = GoldenDataset.model_validate(_dataset(judge))
    variants = [
        Variant.model_validate({"name": n, "model": {"spec": f"fake:{n}"}}) for n in ("good", "bad")
    ]
    run_id = run_suite(store, dataset, variants, RunOptions(progress=False)).run_id
    judge_run(store, run_id, spec, progress=False)
    return seen


TEXT = JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="text")


def test_the_datasets_judge_block_sets_the_persona_and_rubric(store: Store) -> None:
    (system,) = _systems(store, TEXT, BLOCK)
    assert "an impartial judge of a kitchen assistant." in system
    assert "Exact quantities matter most." in system and "research" not in system


def test_without_a_block_the_judge_is_told_a_neutral_persona(store: Store) -> None:
    (system,) = _systems(store, TEXT, None)
    assert "an impartial judge of an AI assistant." in system and "research" not in system
    assert DEFAULT_PERSONA == "an AI assistant" and "ignore length and style" in system


def test_the_judge_specs_persona_wins_over_the_datasets(store: Store) -> None:
    spec = TEXT.model_copy(update={"persona": "a pastry chef's helper"})
    (system,) = _systems(store, spec, BLOCK)
    assert "judge of a pastry chef's helper." in system and "Exact quantities" in system


@pytest.mark.parametrize("mode", ["text", "logprobs", "grades", "checklist"])
def test_every_mode_names_the_persona_and_a_new_persona_is_a_new_verdict(mode: str) -> None:
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"), mode=mode)
    base = PairRequest(case_id="K-1", query="q", answer_a="a", answer_b="b")
    kitchen = base.model_copy(update=BLOCK)
    for conversation in get_mode(mode).conversations(kitchen):
        assert "a kitchen assistant" in str(conversation[0].content)
        assert "Exact quantities matter most." in str(conversation[0].content)
    assert verdict_key(spec, kitchen) != verdict_key(spec, base)


def test_the_spec_key_changes_with_a_persona_and_not_without_one(tmp_path: Path) -> None:
    plain = JudgeSpec(model=ModelConfig(spec="local:qwen2.5-coder-1.5b"), mode="checklist")
    assert "persona" not in plain.model_dump() and "rubric" not in plain.model_dump()
    kitchen = plain.model_copy(update={"persona": "a kitchen assistant"})
    assert kitchen.key != plain.key
    file = tmp_path / "judge.yaml"
    file.write_text(
        "model: {spec: 'local:qwen2.5-coder-1.5b'}\nmode: checklist\n"
        "persona: a kitchen assistant\nrubric: Quantities first.\n"
    )
    parsed = parse_judge(str(file))
    assert parsed.persona == "a kitchen assistant" and parsed.rubric == "Quantities first."
    assert parsed.settings(None).persona == "a kitchen assistant"


def test_the_judge_block_changes_no_case_hash_and_is_checked(tmp_path: Path) -> None:
    plain = GoldenDataset.model_validate(_dataset())
    with_block = GoldenDataset.model_validate(_dataset(BLOCK))
    assert [case_hash(c) for c in plain.test_cases] == [case_hash(c) for c in with_block.test_cases]
    assert "judge" not in plain.model_dump(mode="json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_dataset({"persona": "x", "rubirc": "typo"})))
    with pytest.raises(InputError) as err:
        load_dataset(bad)
    assert "bad.json" in str(err.value) and "rubirc" in str(err.value)


def test_the_kitchen_example_tells_its_judge_it_judges_a_kitchen_assistant() -> None:
    kitchen = load_dataset(KITCHEN)
    assert kitchen.judge is not None and kitchen.judge.persona is not None
    assert "kitchen" in kitchen.judge.persona and "research" not in kitchen.judge.persona
    research = load_dataset(data_dir() / "golden" / "research_agent.json")
    assert research.judge is None  # the built-in agent keeps the default persona

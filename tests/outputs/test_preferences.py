"""The shipped human-preference set: provenance, a fixed held-out split, a loader of pairs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.errors import InputError
from arena.outputs import LabelledPair, load_outputs, load_preference_set, shipped_set_dir
from tests.support.benchmarks import load_benchmark


def test_the_shipped_set_is_llmbar_with_its_licence_and_a_stored_split() -> None:
    shipped = load_preference_set()
    assert len(shipped.pairs) == 99 and all(isinstance(p, LabelledPair) for p in shipped.pairs)
    assert len(shipped.held_out()) == 40 and len(shipped.calibration()) == 59
    assert not {p.id for p in shipped.held_out()} & {p.id for p in shipped.calibration()}
    assert shipped.source["repository"] == "https://github.com/princeton-nlp/LLMBar"
    assert len(shipped.source["commit"]) == 40
    assert (shipped_set_dir() / "LICENSE").read_text().startswith("MIT License")
    # Both LLMBar subsets are in it, and people preferred each side sometimes.
    assert {p.id.split("-")[0] for p in shipped.pairs} == {"natural", "gptout"}
    assert {p.preferred for p in shipped.held_out()} == {1, 2}


def test_the_held_out_ids_are_the_seeded_draw_of_the_builder() -> None:
    builder = load_benchmark("llmbar_subset")
    shipped = load_preference_set()
    stored = json.loads((shipped_set_dir() / "held_out.json").read_text())
    assert builder.held_out([p.id for p in shipped.pairs]) == stored
    assert sorted(p.id for p in shipped.held_out()) == stored


def test_a_pair_reads_its_question_answers_and_vote() -> None:
    pair = next(p for p in load_preference_set().pairs if p.id == "natural-003")
    assert pair.question.startswith("Why does eating something crunchy")
    assert pair.answer_1.startswith("The sound is transmitted")
    assert pair.answer_2.startswith("The noise that crunchy foods make")
    assert pair.preferred == 1  # LLMBar's label 1: output_1


def test_arena_judge_outputs_reads_the_two_sides_as_two_variants() -> None:
    sides = [str(shipped_set_dir() / f"output-{n}.jsonl") for n in (1, 2)]
    loaded = load_outputs(sides)
    assert [v.name for v in loaded.variants] == ["llmbar-output-1", "llmbar-output-2"]
    assert len(loaded.dataset.test_cases) == 99
    # No golden expectations: these are the open-ended answers the set measures judges on.
    assert all(not c.expected_output_contains for c in loaded.dataset.test_cases)


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    shutil.copytree(shipped_set_dir(), folder)
    return folder


def test_a_pair_without_a_vote_names_the_file_and_the_question(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    votes = folder / "votes.jsonl"
    votes.write_text("".join(votes.read_text().splitlines(keepends=True)[1:]))
    with pytest.raises(InputError, match=r"votes\.jsonl, case natural-001, field winner"):
        load_preference_set(folder)


def test_a_vote_for_an_unknown_model_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    votes = folder / "votes.jsonl"
    votes.write_text(votes.read_text().replace("llmbar-output-2", "someone-else", 1))
    with pytest.raises(InputError, match=r"votes\.jsonl, field winner: line 1"):
        load_preference_set(folder)


def test_a_held_out_id_without_a_pair_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "held_out.json").write_text(json.dumps(["natural-001", "nope-1"]))
    with pytest.raises(InputError, match=r"held_out\.json, field held_out: .*nope-1"):
        load_preference_set(folder)


def _pandalm() -> Path:
    return shipped_set_dir().parent / "pandalm"


def test_the_set_with_ties_is_pandalm_with_its_licence_a_majority_rule_and_a_stored_split() -> None:
    ties = load_preference_set(_pandalm())
    source = ties.source
    assert source["repository"] == "https://github.com/WeOpenML/PandaLM"
    assert source["path"] == "data/testset-v1.json" and len(source["commit"]) == 40
    assert (_pandalm() / "LICENSE").read_text().lstrip().startswith("Apache License")
    assert len(ties.pairs) == source["pairs"] == 359
    assert len(ties.held_out()) == 50 and len(ties.calibration()) == 309
    # People called ties: the label counts of SOURCE.json, every tie read as 0.
    labels = source["labels"]
    assert sum(p.preferred == 0 for p in ties.pairs) == labels["tie"] > 0
    assert sum(p.preferred == 1 for p in ties.pairs) == labels["model_a"]
    assert {p.preferred for p in ties.held_out()} == {0, 1, 2}
    builder = load_benchmark("pandalm_subset")
    stored = json.loads((_pandalm() / "held_out.json").read_text())
    assert builder.held_out([{"id": p.id} for p in ties.pairs]) == stored
    assert all(
        len(p.question) + len(p.answer_1) + len(p.answer_2) <= source["max_chars"] + 2
        for p in ties.pairs
    )  # the question joins instruction and input with a blank line


def test_the_builder_keeps_short_text_pairs_under_the_annotators_majority() -> None:
    builder = load_benchmark("pandalm_subset")

    def item(idx: int, one: object, two: object, labels: tuple[int, int, int]) -> dict[str, object]:
        votes = dict(zip(builder.ANNOTATORS, labels, strict=True))
        return {
            "idx": idx,
            "instruction": "Say hi.",
            "input": "",
            "response1": one,
            "response2": two,
            **votes,
        }

    items = [
        item(0, "Hi", "Hello", (0, 0, 1)),  # two of three called a tie
        item(1, "Hi", "Hey", (2, 1, 2)),
        item(2, True, "Hi", (1, 1, 1)),  # not text
        item(3, "x" * 500, "Hi", (1, 1, 1)),  # too long
        item(4, "Hi", "Yo", (0, 1, 2)),  # no majority
    ]
    chosen, dropped = builder.select(items)
    assert [(p["id"], p["label"]) for p in chosen] == [("pandalm-000", 0), ("pandalm-001", 2)]
    assert dropped == {"not text": 1, "too long": 1, "no majority": 1}
    assert builder.question({"instruction": "Fix: ", "input": "teh cat"}) == "Fix:\n\nteh cat"


def test_a_tie_vote_is_read_as_preferred_0(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    votes = folder / "votes.jsonl"
    votes.write_text(votes.read_text().replace('"winner": "model_a"', '"winner": "tie"', 1))
    pair = next(p for p in load_preference_set(folder).pairs if p.id == "natural-001")
    assert pair.preferred == 0

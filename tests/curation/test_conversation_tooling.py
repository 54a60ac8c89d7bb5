"""Golden tooling for conversation cases: loading errors, lint rules, `arena golden add`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.curation._grow import add_case, case_from_result
from arena.curation._lint import lint_dataset
from arena.errors import InputError
from arena.golden import GoldenCase, GoldenDataset, load_dataset
from arena.records.dialogue import Dialogue, DialogueTurn
from arena.records.results import RunResult

pytestmark = pytest.mark.unit


def _case(case_id: str = "D-1", **conversation: Any) -> dict[str, Any]:
    return {
        "id": case_id,
        "input": "I want a refund for my blender.",
        "category": "multi_step",
        "tier": "critical",
        "conversation": conversation,
    }


def _dataset(*cases: dict[str, Any]) -> GoldenDataset:
    return GoldenDataset.model_validate(
        {"name": "d", "available_tools": ["issue_refund"], "test_cases": list(cases)}
    )


def _rules(dataset: GoldenDataset) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for finding in lint_dataset(dataset).findings:
        found.setdefault(finding.rule, []).extend(finding.cases)
    return found


def test_a_bad_expectation_names_file_case_and_field(tmp_path: Path) -> None:
    path = tmp_path / "golden.json"
    bad = _case(turns=[{"user": "It's 4471."}], expect=[{"turn": 0, "contains": ["order"]}])
    path.write_text(json.dumps({"name": "d", "available_tools": [], "test_cases": [bad]}))
    with pytest.raises(InputError) as caught:
        load_dataset(path)
    assert caught.value.file == str(path) and caught.value.case == "D-1"
    assert caught.value.field == "conversation.expect.0.turn"


def test_a_when_that_can_never_hold_is_a_warning() -> None:
    own = {"contains": ["order"], "not_contains": ["order"]}
    against = {"contains": [["order number", "order id"]]}
    data = _dataset(
        _case("D-1", turns=[{"user": "4471", "when": own}]),
        _case(
            "D-2",
            turns=[{"user": "It's 4471, refund it", "when": against, "otherwise": "4471"}],
            expect=[{"turn": 1, "not_contains": ["order"]}],
        ),
        _case(
            "D-3",
            turns=[{"user": "It's 4471, so refund", "when": {"contains": [["order", "receipt"]]}}],
            expect=[{"turn": 1, "not_contains": ["order"]}],  # "receipt" can still match
        ),
    )
    assert _rules(data)["when_never_matches"] == ["D-1", "D-2"]


def test_a_simulated_user_without_the_expected_argument_is_a_warning() -> None:
    user = {"persona": "a customer", "goal": "get a refund"}
    lacking = {**_case("D-1", user=user), "expected_args": {"issue_refund": {"order": "4471"}}}
    knows = {
        **_case("D-2", user={**user, "facts": {"order number": "4471"}}),
        "input": "Refund my kettle please.",
        "expected_args": {"issue_refund": {"order": "4471"}},
    }
    assert _rules(_dataset(lacking, knows))["simulated_user_lacks_facts"] == ["D-1"]


def test_dialogues_that_open_alike_are_not_duplicates() -> None:
    first = _case("D-1", turns=[{"user": "It's order 4471."}])
    other = _case("D-2", turns=[{"user": "Actually, I want to exchange it instead."}])
    same = _case("D-3", turns=[{"user": "It's order 4471."}])
    assert _rules(_dataset(first, other, same))["duplicate_query"] == ["D-1", "D-3"]


def _result(dialogue: Dialogue) -> RunResult:
    return RunResult(
        id=7,
        run_id=1,
        variant="v",
        variant_hash="h",
        case_id="D-1",
        case_hash="c",
        output=dialogue.turns[-1].reply,
        dialogue=dialogue,
    )


def _dialogue(*users: str) -> Dialogue:
    turns = [DialogueTurn(index=i + 1, user=u, reply=f"reply {i}") for i, u in enumerate(users)]
    return Dialogue(turns=turns, ended_by="user", user_model="fake:user")


def test_adding_a_simulated_result_freezes_its_user_turns_as_a_script(tmp_path: Path) -> None:
    source = GoldenCase.model_validate(
        _case(
            user={"persona": "a customer", "goal": "get a refund", "max_turns": 6},
            expect=[{"turn": 1, "contains": ["order"]}, {"turn": 5, "tools": ["issue_refund"]}],
        )
    )
    said = ("I want a refund for my blender.", "It's 4471.", "Yes, go ahead.")
    case = case_from_result(_result(_dialogue(*said)), source, case_id="D-9", reason="r")
    assert case["conversation"] == {
        "turns": [{"user": "It's 4471."}, {"user": "Yes, go ahead."}],
        "expect": [{"turn": 1, "contains": ["order"]}],  # turn 5 was never reached
    }
    path = tmp_path / "golden.json"
    path.write_text(json.dumps({"name": "d", "available_tools": [], "test_cases": []}))
    added = add_case(path, case, "add D-9").case("D-9")
    assert added.conversation is not None and not added.conversation.simulated
    assert added.conversation.max_turns == 3


def test_adding_a_scripted_result_keeps_its_script_and_checks() -> None:
    turns = [{"user": "It's 4471.", "when": {"contains": ["order"]}, "otherwise": "4471"}]
    source = GoldenCase.model_validate(_case(turns=turns))
    said = ("I want a refund for my blender.", "4471")
    case = case_from_result(_result(_dialogue(*said)), source, case_id="D-9", reason="r")
    assert case["conversation"] == {"turns": turns}
    assert GoldenCase.model_validate(case).conversation == source.conversation


def test_adding_a_dialogue_whose_input_and_turns_exist_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "golden.json"
    taken = _case("D-1", turns=[{"user": "It's 4471."}])
    path.write_text(json.dumps({"name": "d", "available_tools": [], "test_cases": [taken]}))
    add_case(path, _case("D-2", turns=[{"user": "Exchange it."}]), "same opening, other turns")
    with pytest.raises(InputError) as caught:
        add_case(path, _case("D-3", turns=[{"user": "It's 4471."}]), "a duplicate")
    assert caught.value.field == "input" and "D-1" in caught.value.message

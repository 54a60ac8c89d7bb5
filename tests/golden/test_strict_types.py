"""A wrong type in a golden case or a variant is refused, never converted: ``true``, ``"3"``
and ``3.0`` are not the integer 3 (a trial's ``"max_supersteps": true`` loaded as 1 and the
gate failed on a regression nobody wrote). Errors name the file, the case and the field,
without pydantic's internal tags, and a key given twice inside a case names the case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.golden import case_hash, load_dataset
from arena.variants.variant import load_variant

pytestmark = pytest.mark.unit


def _case(**fields: Any) -> dict[str, Any]:
    return {"id": "H-1", "input": "hi", "category": "happy_path", **fields}


def _write(tmp_path: Path, case: dict[str, Any]) -> Path:
    path = tmp_path / "desk.json"
    path.write_text(json.dumps({"name": "t", "available_tools": ["t"], "test_cases": [case]}))
    return path


SCRIPT = {"turns": [{"user": "and then?"}]}
SIMULATED = {"user": {"persona": "a user", "goal": "a refund"}}

WRONG = [
    ({"max_supersteps": True}, "max_supersteps", "must be an integer, got true"),
    ({"max_supersteps": "3"}, "max_supersteps", 'must be an integer, got "3"'),
    ({"max_supersteps": 3.0}, "max_supersteps", "must be an integer, got 3.0"),
    ({"max_steps": False}, "max_steps", "must be an integer, got false"),
    ({"max_steps": "5"}, "max_steps", 'must be an integer, got "5"'),
    ({"min_tool_calls": 1.0}, "min_tool_calls", "must be an integer, got 1.0"),
    ({"timeout_s": True}, "timeout_s", "must be a number, got true"),
    ({"timeout_s": "30"}, "timeout_s", 'must be a number, got "30"'),
    (
        {"conversation": {**SCRIPT, "expect": [{"turn": "1", "contains": ["x"]}]}},
        "conversation.expect.0.turn",
        'must be an integer, got "1"',
    ),
    (
        {"conversation": {**SCRIPT, "expect": [{"turn": 1, "max_supersteps": True}]}},
        "conversation.expect.0.max_supersteps",
        "must be an integer, got true",
    ),
    (
        {"conversation": {"user": {**SIMULATED["user"], "max_turns": 2.0}}},
        "conversation.user.max_turns",
        "must be an integer, got 2.0",
    ),
    ({"expected_output_contains": [42]}, "expected_output_contains.0", "must be a string, got 42"),
    (
        {"expected_output_contains": [["a", 42]]},
        "expected_output_contains.0.1",
        "must be a string, got 42",
    ),
]


@pytest.mark.parametrize(("fields", "field", "message"), WRONG)
def test_a_wrong_type_in_a_case_is_exit_2_naming_file_case_and_field(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fields: dict[str, Any],
    field: str,
    message: str,
) -> None:
    path = _write(tmp_path, _case(**fields))
    assert main(["golden", "lint", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"arena: error: file {path}, case H-1, field {field}: {message}" in err
    assert ".str" not in err and "list[str]" not in err


def test_valid_numbers_load_as_before_and_keep_their_hashes(tmp_path: Path) -> None:
    fields = {"max_supersteps": 3, "max_steps": 4, "min_tool_calls": 0, "timeout_s": 30}
    case = load_dataset(_write(tmp_path, _case(**fields))).test_cases[0]
    assert (case.max_supersteps, case.max_steps, case.min_tool_calls) == (3, 4, 0)
    assert case.timeout_s == 30.0 and isinstance(case.timeout_s, float)
    # the hash of a case written with integers, computed before the types were strict
    again = load_dataset(_write(tmp_path, _case(**fields))).test_cases[0]
    assert case_hash(case) == case_hash(again)


def test_a_key_given_twice_in_a_case_names_the_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "desk.json"
    path.write_text(
        '{"name": "t", "available_tools": [], "test_cases": [\n'
        '  {"id": "H-0", "input": "a", "category": "happy_path"},\n'
        '  {"id": "H-1", "input": "b", "category": "happy_path",\n'
        '   "max_supersteps": 3, "max_supersteps": 1}]}\n'
    )
    assert main(["golden", "lint", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"file {path}, case H-1, field max_supersteps: key given twice" in err


VARIANT = "name: v\nagent: react\nmodel: {spec: 'fake:x', temperature: 0, max_tokens: 256}\n"


NUMBER, INTEGER = "must be a number, got", "must be an integer, got"


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        (("temperature: 0", "temperature: true"), "model.temperature", f"{NUMBER} true"),
        (("max_tokens: 256", "max_tokens: '256'"), "model.max_tokens", f'{INTEGER} "256"'),
        (("max_tokens: 256", "max_tokens: 256.0"), "model.max_tokens", f"{INTEGER} 256.0"),
        (("agent: react", "agent: react\nmax_steps: true"), "max_steps", f"{INTEGER} true"),
        (("agent: react", "agent: react\nmax_steps: '4'"), "max_steps", f'{INTEGER} "4"'),
    ],
)
def test_a_wrong_type_in_a_variant_is_refused(
    tmp_path: Path, edit: tuple[str, str], field: str, message: str
) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(VARIANT.replace(*edit))
    with pytest.raises(InputError) as info:
        load_variant(path)
    assert str(info.value) == f"file {path}, variant v, field {field}: {message}"


def test_a_valid_variant_loads_with_its_numbers(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(VARIANT + "max_steps: 4\n")
    variant = load_variant(path)
    assert (variant.model.temperature, variant.model.max_tokens, variant.max_steps) == (0, 256, 4)

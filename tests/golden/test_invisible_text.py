"""Text made only of whitespace and invisible format characters (Unicode category Cf: the
zero-width space, joiners, word joiner, byte-order mark, bidi controls) is blank: a golden
text field holding it is exit 2 naming the file, the case and the field, through `arena
golden lint` and `arena run` alike, and nothing is written (user trial after issue 36: a
goal of "\\u200b" and `expected_output_not_contains: ["\\u200b"]` passed lint and the gate)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.storage import Store
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit

INVISIBLE = {
    "zero-width space": "\u200b",
    "no-break space and zero-width space": "\u00a0\u200b",
    "zero-width joiner and non-joiner": "\u200c\u200d",
    "word joiner": "\u2060",
    "byte-order mark": " \ufeff ",
    "bidi override and isolate": "\u202e\u2066",
    "soft hyphen and tab": "\u00ad\t",
}


def _case(**fields: Any) -> dict[str, Any]:
    return {
        "id": "T-9",
        "input": "Book TA-303 from Rome to Madrid.",
        "category": "happy_path",
        "tier": "critical",
        **fields,
    }


def _simulated(goal: str) -> dict[str, Any]:
    user = {"persona": "A busy traveller.", "goal": goal, "facts": {"passenger": "Carla Diaz"}}
    return {"conversation": {"user": user}}


# the case's fields for an invisible text -> the field the error names
FIELDS = {
    "conversation.user.goal": _simulated,
    "expected_output_not_contains.0": lambda text: {"expected_output_not_contains": [text]},
    "expected_output_contains.0": lambda text: {"expected_output_contains": [text]},
    "conversation.expect.0.not_contains.0": lambda text: {
        "conversation": {
            "turns": [{"user": "Yes."}],
            "expect": [{"turn": 1, "not_contains": [text]}],
        }
    },
}


def _write(tmp_path: Path, case: dict[str, Any]) -> Path:
    path = tmp_path / "travel.json"
    data = {"name": "travel", "available_tools": ["calculate"], "test_cases": [case]}
    path.write_text(json.dumps(data))
    return path


def _argv(kind: str, dataset: Path, db: Path) -> list[str]:
    if kind == "lint":
        return ["golden", "lint", "--dataset", str(dataset)]
    variant = dataset.parent / "v.yaml"
    variant.write_text("name: v\nmodel: {spec: 'fake:echo'}\ntools: [calculate]\n")
    return run_argv(variant, dataset, f"sqlite:///{db}")


def _refused(err: str, dataset: Path, field: str) -> None:
    assert err.startswith(f"arena: error: file {dataset}, case T-9, field {field}: "), err
    assert "must not be empty or blank" in err, err


@pytest.mark.parametrize("kind", ["lint", "run"])
@pytest.mark.parametrize("field", list(FIELDS))
def test_a_zero_width_space_is_blank_exit_2_naming_file_case_and_field(
    field: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = _write(tmp_path, _case(**FIELDS[field]("\u200b")))
    db = tmp_path / "arena.db"
    argv = _argv(kind, dataset, db)
    assert main(argv) == 2
    _refused(capsys.readouterr().err, dataset, field)
    assert not db.exists() or Store(f"sqlite:///{db}").runs() == []


@pytest.mark.parametrize("name", list(INVISIBLE))
def test_every_invisible_format_character_counts_as_blank(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = _write(tmp_path, _case(**_simulated(INVISIBLE[name])))
    argv = ["golden", "lint", str(dataset)]
    assert main(argv) == 2
    _refused(capsys.readouterr().err, dataset, "conversation.user.goal")


def test_visible_text_beside_invisible_characters_is_accepted_alone_it_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = _case(
        expected_output_not_contains=["\u200bsorry"],
        expected_output_contains=["BK\u2060-303"],
        **_simulated("\ufeffGet the flight booked."),
    )
    assert main(["golden", "lint", "--dataset", str(_write(tmp_path, case))]) == 0, (
        capsys.readouterr().err
    )
    alone = _case(**_simulated("\ufeff\u200b"))
    assert main(["golden", "lint", "--dataset", str(_write(tmp_path, alone))]) == 2

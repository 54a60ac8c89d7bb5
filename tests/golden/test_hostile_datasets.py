"""Hostile golden datasets: every one is an InputError naming the file (and the case and the
field where there is one), never a traceback, and `arena run` exits 2 writing nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.errors import InputError
from arena.golden import GoldenCase, load_dataset
from arena.golden._models import CASE_ID_PATTERN
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit


def _case(**fields: Any) -> dict[str, Any]:
    return {"id": "C-1", "input": "hi", "category": "happy_path", **fields}


def _write(tmp_path: Path, cases: list[Any], name: str = "golden.json") -> Path:
    path = tmp_path / name
    path.write_text(
        json.dumps({"name": "t", "available_tools": ["calculate"], "test_cases": cases})
    )
    return path


BAD_IDS = [
    "/some/dir",
    "../../x",
    "..",
    ".",
    "a/b",
    "a\\b",
    "~root",
    "C-1/../..",
    "a..b",
    "-rf",
    ".hidden",
    "x" * 129,
    "",
    " C-1",
    "C-1 ",
    "C 1",
    "C\n1",
    "C\x001",
    "é-1",
    "C:1",
    "C*",
    "$(rm -rf ~)",
    "\ud800",
]


@pytest.mark.parametrize("bad_id", BAD_IDS, ids=[f"id{i}" for i in range(len(BAD_IDS))])
def test_unsafe_case_ids_are_refused(tmp_path: Path, bad_id: str) -> None:
    path = tmp_path / "golden.json"
    path.write_text(
        json.dumps(
            {
                "name": "t",
                "available_tools": ["calculate"],
                "test_cases": [_case(id="OK-1"), _case(id=bad_id)],
            }
        )
    )
    with pytest.raises(InputError) as info:
        load_dataset(path)
    text = str(info.value)
    assert f"file {path}" in text and "case #1" in text and "field id" in text, text
    assert any(
        why in text
        for why in (
            CASE_ID_PATTERN,
            "at least 1 character",
            "unable to parse raw data as a unicode string",
        )
    )


@pytest.mark.parametrize("good_id", ["C-1", "HP-001", "a", "1", "v1.2_x-3", "x" * 128, "A.b"])
def test_safe_case_ids_load(tmp_path: Path, good_id: str) -> None:
    assert load_dataset(_write(tmp_path, [_case(id=good_id)])).test_cases[0].id == good_id


def test_the_model_itself_refuses_unsafe_ids() -> None:
    with pytest.raises(ValueError, match="case ids must match"):
        GoldenCase.model_validate(_case(id="../../etc"))


@pytest.mark.parametrize(
    "pattern", ["(", "[a-", "a{2,1}", "(?P<x>a)(?P<x>b)", "*", "\\", "(?<=a+)b", "x" * 10 + ")"]
)
def test_invalid_regex_is_refused_at_load(tmp_path: Path, pattern: str) -> None:
    path = _write(tmp_path, [_case(expected_output_regex=pattern)])
    with pytest.raises(InputError) as info:
        load_dataset(path)
    text = str(info.value)
    assert f"file {path}" in text and "case C-1" in text
    assert "field expected_output_regex" in text and "invalid regular expression" in text


def test_valid_regex_loads(tmp_path: Path) -> None:
    path = _write(tmp_path, [_case(expected_output_regex=r"\b300\b")])
    assert load_dataset(path).test_cases[0].expected_output_regex == r"\b300\b"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{\x00}", "not UTF-8"),
        ('{"name": "caf\xe9"}'.encode("latin-1"), "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (
            b'{"name": "t", "available_tools": [], "test_cases": ' + b"[" * 150 + b"]" * 150 + b"}",
            "nested too deeply",
        ),
        (
            b'{"name": "t", "available_tools": [], "test_cases": [], "x": ' + b"9" * 5000 + b"}",
            "malformed JSON",
        ),
        (b'{"name": "t", "available_tools": ', "malformed JSON"),
        (b"", "malformed JSON"),
        (b"\x00\x00", "malformed JSON"),
        (b'"just a string"', "expected a JSON object"),
    ],
)
def test_unreadable_files_name_the_file(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "golden.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        load_dataset(path)
    assert f"file {path}" in str(info.value) and message in str(info.value)


def test_deep_nesting_inside_a_case_names_the_file(tmp_path: Path) -> None:
    deep: Any = "x"
    for _ in range(200):
        deep = {"k": deep}
    path = _write(tmp_path, [_case(expected_args={"calculate": deep})])
    with pytest.raises(InputError, match="nested too deeply") as info:
        load_dataset(path)
    assert f"file {path}" in str(info.value)


def test_a_folder_given_as_the_dataset(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder, not a file") as info:
        load_dataset(tmp_path)
    assert f"file {tmp_path}" in str(info.value)


def test_cli_run_exits_2_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    variant = tmp_path / "v.yaml"
    variant.write_text("name: v\nmodel: {spec: 'fake:echo'}\n")
    db = tmp_path / "arena.db"
    bad = [
        _write(tmp_path, [_case(id="../../x")], "ids.json"),
        _write(tmp_path, [_case(expected_output_regex="(")], "regex.json"),
    ]
    (tmp_path / "latin.json").write_bytes(b'{"name": "caf\xe9"}')
    (tmp_path / "deep.json").write_text("[" * 5000 + "]" * 5000)
    for dataset in [*bad, tmp_path / "latin.json", tmp_path / "deep.json", tmp_path]:
        code = main(run_argv(variant, dataset, f"sqlite:///{db}"))
        err = capsys.readouterr().err
        assert code == 2 and str(dataset) in err and "Traceback" not in err, err
    assert not db.exists() or db.stat().st_size == 0 or _no_runs(db)


def _no_runs(db: Path) -> bool:
    from arena.storage import Store

    return Store(f"sqlite:///{db}").runs() == []

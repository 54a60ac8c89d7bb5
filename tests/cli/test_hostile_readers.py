"""Every reader is on the one safe reading layer: each hostile input is exit 2 (or an
InputError) naming the file, the line or case, and the field where there is one; never a
traceback, never a crash, never a silent guess (a key given twice, NaN)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.golden import load_dataset
from arena.langsmith._files import read_examples
from arena.variants.variant import load_variant
from judges import parse_judge
from tests.support.cli_args import arena_command

pytestmark = pytest.mark.unit

ROW = {"model_a": "x", "model_b": "y", "winner": "model_a", "question_id": "q1"}
DEEP = "[" * 100_000 + "]" * 100_000


def _log(tmp_path: Path, *lines: str, name: str = "log.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _exit_and_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def test_a_battle_log_nested_100000_levels_deep_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was a RecursionError traceback (exit 1) from the pyarrow path's first-row check.
    log = _log(tmp_path, '{"model_a": ' + DEEP + "}")
    code, err = _exit_and_error(["ratings", "--battles", str(log)], capsys)
    assert code == 2
    assert str(log) in err and "line 1" in err and "nested too deeply" in err


def test_a_deep_row_after_good_ones_does_not_crash_the_process(tmp_path: Path) -> None:
    # With FastChat's nested count dicts in the first row, pyarrow parsed every field, recursed
    # into the deep one and the process died (SIGSEGV, exit -11).
    meta = {"conv_metadata": {"header_count_a": {"h1": 1}, "header_count_b": {"h1": 2}}}
    deep = '{"model_a": "x", "model_b": "y", "winner": "tie", "d": ' + DEEP + "}"
    rows = [json.dumps({**ROW, **meta})] * 3 + [deep]
    log = _log(tmp_path, *rows)
    done = subprocess.run(
        arena_command("ratings", "--battles", str(log)), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr[-500:]
    assert "line 4" in done.stderr and "nested too deeply" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("line", "where", "message"),
    [
        (
            '{"model_a": "x", "model_a": "z", "model_b": "y", "winner": "tie"}',
            "field model_a",
            "twice",
        ),
        (
            '{"model_a": "x", "model_b": "y", "winner": "tie", "len_a": NaN, "len_b": 3}',
            "field len_a",
            "NaN",
        ),
        (
            '{"model_a": "x", "model_b": "y", "winner": "tie", "score": Infinity}',
            "field score",
            "Infinity",
        ),
    ],
)
def test_a_battle_log_line_the_strict_parser_refuses_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, where: str, message: str
) -> None:
    # pyarrow took the last of two keys and NaN silently; the row path took the last key.
    log = _log(tmp_path, json.dumps(ROW), line, json.dumps(ROW))
    code, err = _exit_and_error(["ratings", "--battles", str(log)], capsys)
    assert code == 2
    assert str(log) in err and "line 2" in err and where in err and message in err


def test_a_vote_file_with_a_key_given_twice_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vote = (
        '{"question_id": 1, "model_a": "x", "model_b": "y", "winner": "model_a", '
        '"winner": "model_b", "judge": "j"}'
    )
    log = _log(tmp_path, vote)
    code, err = _exit_and_error(["agree", str(log)], capsys)
    assert code == 2
    assert "line 1" in err and "field winner" in err and "twice" in err


def _dataset(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "golden.json"
    path.write_text(text, encoding="utf-8")
    return path


_CASE = '{"name": "t", "available_tools": [], "test_cases": [{"id": "C-1", "input": "q", '


@pytest.mark.parametrize(
    ("text", "case", "field", "message"),
    [
        (
            '{"name": "t", "name": "u", "available_tools": [], "test_cases": []}',
            None,
            "name",
            "twice",
        ),
        (_CASE + '"category": "happy_path", "timeout_s": NaN}]}', "C-1", "timeout_s", "NaN"),
        (
            _CASE + '"category": "happy_path", "max_steps": 3, "max_steps": 1}]}',
            "C-1",
            "max_steps",
            "key given twice",
        ),
        (
            _CASE + '"category": "happy_path", "conversation": {"turns": [{"user": "a", '
            '"user": "b"}]}}]}',
            "C-1",
            "conversation.turns.0.user",
            "key given twice",
        ),
    ],
)
def test_a_golden_dataset_with_a_repeated_key_or_nan_is_refused(
    tmp_path: Path, text: str, case: str | None, field: str, message: str
) -> None:
    path = _dataset(tmp_path, text)
    with pytest.raises(InputError, match=message) as info:
        load_dataset(path)
    assert info.value.file == str(path) and info.value.field == field
    assert info.value.case == case


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name: a\nagent: react\nmodel: {spec: 'fake:x'}\nname: b\n",
            "line 4: 'name': key given twice",
        ),
        ("name: a\nagent: react\nmodel: {spec: 'fake:x', temperature: .nan}\n", "line 3: .nan"),
    ],
)
def test_a_variant_with_a_repeated_key_or_nan_is_refused(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        load_variant(path)
    assert info.value.file == str(path)


def test_a_judge_file_with_a_repeated_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "judge.yaml"
    path.write_text("model: {spec: 'fake:a'}\nmode: text\nmode: logprobs\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 3: 'mode': key given twice") as info:
        parse_judge(str(path))
    assert info.value.file == str(path)


def test_a_gate_config_with_a_repeated_key_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.project._config import load_config

    path = tmp_path / "arena.yaml"
    path.write_text("rules:\n  max_drop: 0.05\n  max_drop: 0.5\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 3: 'max_drop': key given twice") as info:
        load_config(path)
    assert info.value.file == str(path)


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("deep.csv", 'query,metadata.extra\nq,"' + "[" * 5000 + "]" * 5000 + '"\n', None),
        ("big.csv", "query\n" + "x" * 200_000 + "\n", "line 2"),
        ("twice.jsonl", '{"inputs": {"query": "q"}, "inputs": {}}\n', "line 1"),
        ("deep.jsonl", '{"inputs": ' + DEEP + "}\n", "line 1"),
    ],
)
def test_langsmith_example_files_are_read_safely(
    tmp_path: Path, name: str, text: str, where: str | None
) -> None:
    # deep.csv was a RecursionError, big.csv a csv.Error traceback.
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if where is None:  # a cell that is not JSON after all is kept as its text
        (example,) = read_examples(path)
        assert example["metadata"]["extra"].startswith("[[[")
        return
    with pytest.raises(InputError) as info:
        read_examples(path)
    assert info.value.file == str(path) and info.value.at == where

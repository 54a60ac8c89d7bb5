"""Bad judge files are an InputError naming the file (exit 2), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.errors import InputError
from judges import parse_judge

pytestmark = pytest.mark.unit

_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcde", "bcdef", strict=True)
)

BAD_FILES: list[tuple[str, bytes | None, str]] = [
    ("bomb.yaml", _BOMB.encode(), "YAML expands to more than"),
    ("syntax.yaml", b"model: {spec: 'openai:gpt-4o'\nmode: text\n", "malformed YAML"),
    ("latin1.yaml", "model: {spec: 'fake:jüdge'}\n".encode("latin-1"), "not UTF-8"),
    ("folder.yaml", None, "is a folder"),
    ("missing.yaml", b"", "no such file"),
    ("mode.yaml", b"model: {spec: 'fake:j'}\nmode: vibes\n", "field mode: Value error"),
    ("field.yaml", b"model: {spec: 'fake:j'}\ntie_margin: 2\n", "field tie_margin"),
    ("list.yaml", b"- model\n", "valid dictionary"),
    ("empty.yaml", b"", "valid dictionary"),
]


def _make(tmp_path: Path, name: str, content: bytes | None) -> Path:
    path = tmp_path / name
    if content is None:
        path.mkdir()
    elif name != "missing.yaml":
        path.write_bytes(content)
    return path


@pytest.mark.parametrize(("name", "content", "message"), BAD_FILES)
def test_bad_judge_files_name_the_file(
    tmp_path: Path, name: str, content: bytes | None, message: str
) -> None:
    path = _make(tmp_path, name, content)
    with pytest.raises(InputError, match=message) as caught:
        parse_judge(str(path))
    assert caught.value.file == str(path)


def test_a_folder_without_a_yaml_suffix_is_named_too(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder") as caught:
        parse_judge(str(tmp_path))
    assert caught.value.file == str(tmp_path)


@pytest.mark.parametrize(("name", "content", "message"), BAD_FILES)
def test_arena_judge_exits_2_on_bad_judge_files_before_touching_the_database(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes | None,
    message: str,
) -> None:
    from arena.cli import main

    path = _make(tmp_path, name, content)
    db = tmp_path / "untouched.db"
    assert main(["judge", "--judge", str(path), "--db", f"sqlite:///{db}"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and message.split(":")[0] in err and "Traceback" not in err
    assert not db.exists()

"""A cascade is a graph, checked before any model call: a judge escalating back to itself or
to a judge before it (``A -> B -> A``, ``A -> A``), an entry that cannot be read and a chain
longer than the bound are exit 2 naming the file that holds the entry and
``selective.escalate_to``; nothing is judged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.errors import InputError
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec, check_cascade, parse_judge
from judges._spec import MAX_CASCADE
from judges._types import SelectiveSettings

pytestmark = pytest.mark.unit


def _judge(path: Path, model: str, *escalate_to: Path | str) -> Path:
    entries = ", ".join(f"'{e}'" for e in escalate_to)
    path.write_text(
        f"model: {{spec: 'fake:{model}'}}\nmode: text\nselective: {{escalate_to: [{entries}]}}\n"
    )
    return path


def test_a_loop_names_the_file_that_closes_it(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    _judge(a, "one", b)
    _judge(b, "two", a)
    with pytest.raises(InputError) as caught:
        parse_judge(str(a))
    assert (caught.value.file, caught.value.field) == (str(b), "selective.escalate_to")
    assert f"the cascade loops back: {a} -> {b} -> {a}" in caught.value.message


def test_a_judge_escalating_to_itself_is_a_loop(tmp_path: Path) -> None:
    a = _judge(tmp_path / "a.yaml", "one", tmp_path / "a.yaml")
    with pytest.raises(InputError, match="loops back") as caught:
        parse_judge(str(a))
    assert (caught.value.file, caught.value.field) == (str(a), "selective.escalate_to")
    same = _judge(tmp_path / "same.yaml", "one")  # another file, the same judge (its key)
    with pytest.raises(InputError, match="loops back"):
        parse_judge(str(_judge(tmp_path / "c.yaml", "one", same)))


def test_a_missing_judge_file_is_named_with_the_file_and_field(tmp_path: Path) -> None:
    a = _judge(tmp_path / "a.yaml", "one", tmp_path / "gone.yaml")
    with pytest.raises(InputError) as caught:
        parse_judge(str(a))
    assert (caught.value.file, caught.value.field) == (str(a), "selective.escalate_to")
    assert f"the judge '{tmp_path / 'gone.yaml'}' it escalates to cannot be read" in str(
        caught.value
    )


def test_the_chain_is_bounded(tmp_path: Path) -> None:
    files = [tmp_path / f"j{i}.yaml" for i in range(MAX_CASCADE + 1)]
    for i, path in enumerate(files):
        _judge(path, f"m{i}", *files[i + 1 : i + 2])
    with pytest.raises(InputError, match=f"longer than {MAX_CASCADE} judges"):
        parse_judge(str(files[0]))
    assert len(check_cascade(parse_judge(str(files[1])), file=str(files[1]))) == MAX_CASCADE - 1


def test_a_spec_built_in_code_is_checked_before_any_battle(tmp_path: Path, store: Store) -> None:
    from arena.battles import judge_run
    from tests.battles.test_judges import _run

    run_id = _run(store)
    calls: list[str] = []

    def answer(_messages: object) -> str:
        calls.append("called")
        return "[[A>B]]"

    register_fake("looping", [answer], cycle=True)
    b = tmp_path / "b.yaml"
    _judge(b, "other", tmp_path / "a.yaml")
    _judge(tmp_path / "a.yaml", "looping", b)
    spec = JudgeSpec(
        model=ModelConfig(spec="fake:looping"),
        selective=SelectiveSettings(escalate_to=(str(b),)),
    )
    with pytest.raises(InputError, match="loops back"):
        judge_run(store, run_id, spec, progress=False)
    assert calls == [] and store.battles(run_id) == []


@pytest.mark.system
def test_arena_judge_exits_2_with_one_line(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    _judge(a, "one", b)
    _judge(b, "two", a)
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "judge", "--judge", str(a), "--db", "x.db"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"arena: error: file {b}, field selective.escalate_to: ")
    assert not (tmp_path / "x.db").exists()

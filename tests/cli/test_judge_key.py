"""A stored judge is ``--judge-key KEY`` in ``ratings``, ``battles export`` and ``compare``; the
old ``--judge KEY`` there still works, with a deprecation note on stderr. Where ``--judge`` is a
judge spec (``arena judge``) it stays, without a note."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.battles import judge_run
from arena.cli import main
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec
from tests.battles.test_judges import _prefers_300, _run

pytestmark = pytest.mark.unit

NOTE = "--judge KEY is deprecated here, use --judge-key KEY"


@pytest.fixture
def two_judges(store: Store) -> tuple[str, str]:
    """A run judged by a fair judge, then by one always preferring the first answer (the
    latest): the two judges' keys, fair first."""
    run_id = _run(store)
    register_fake("fair", [_prefers_300], cycle=True)
    register_fake("first", ["[[A>B]]"], cycle=True)
    keys = []
    for name in ("fair", "first"):
        spec = JudgeSpec(model=ModelConfig(spec=f"fake:{name}"))
        judge_run(store, run_id, spec, progress=False)
        keys.append(spec.key)
    return keys[0], keys[1]


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[Any, str]:
    assert main(argv) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def test_ratings_reads_the_judge_named_by_judge_key_and_the_old_spelling_warns(
    two_judges: tuple[str, str], db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fair, first = two_judges
    base = ["ratings", "--json", "--bootstrap", "20", "--db", db_url]
    latest, _ = _json(capsys, base)
    assert latest["judge_key"] == first
    board, err = _json(capsys, [*base, "--judge-key", fair])
    assert board["judge_key"] == fair and NOTE not in err
    old, err = _json(capsys, [*base, "--judge", fair])
    assert old == board and NOTE in err


def test_battles_export_reads_the_judge_named_by_judge_key_and_the_old_spelling_warns(
    two_judges: tuple[str, str], db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fair, _ = two_judges
    base = ["battles", "export", "--db", db_url]
    assert main([*base, "--judge-key", fair]) == 0
    new = capsys.readouterr()
    rows = [json.loads(line) for line in new.out.splitlines()]
    assert rows and {r["judge"] for r in rows} == {fair} and NOTE not in new.err
    assert main([*base, "--judge", fair]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and NOTE in old.err


def test_compare_reads_the_judge_named_by_judge_key_and_the_old_spelling_warns(
    two_judges: tuple[str, str], db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fair, _ = two_judges
    base = ["compare", "--baseline", "good", "--candidate", "bad", "--json", "--db", db_url]
    assert main(base) == 1  # bad regressed: worse with either judge
    latest = json.loads(capsys.readouterr().out)
    assert latest["win_rate"] == 0.5  # the latest judge always picks the first answer: ties
    assert main([*base, "--judge-key", fair]) == 1
    new = capsys.readouterr()
    report = json.loads(new.out)
    assert report["win_rate"] == 0.0 and NOTE not in new.err  # the fair judge: bad loses
    assert main([*base, "--judge", fair]) == 1
    old = capsys.readouterr()
    assert json.loads(old.out) == report and NOTE in old.err


def test_compare_sequential_refuses_a_stored_judge_key(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["compare", "--baseline", "a", "--candidate", "b", "--sequential"]
    assert main([*argv, "--judge-key", "0123456789ab", "--db", db_url]) == 2
    assert "--judge-key" in capsys.readouterr().err


def test_judge_keeps_judge_as_a_spec_without_a_note(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(store)
    register_fake("fair", [_prefers_300], cycle=True)
    report, err = _json(capsys, ["judge", "--judge", "fake:fair/text", "--json", "--db", db_url])
    assert report["judge"]["model"]["spec"] == "fake:fair" and NOTE not in err

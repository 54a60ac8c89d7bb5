"""Format versions of the JSONL files agent-arena writes and reads besides baselines: battle
logs (``arena battles export``, read by ``arena ratings --battles``), vote files (battle-log
rows, read by ``arena agree``) and labelled-verdicts files (``arena health --labels``).

Every exported row says its format (``arena_format``); a row of a newer format is refused
naming the file, the row and the version, before any of its other fields is validated (a
newer format may spell them differently), on the fast (pyarrow) path and the row-by-row one,
in JSONL and in a JSON list; a row without a version is format 1, as every file written before
(and every other tool's) is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.battle_log.fast_reader import read_fast
from arena.battle_log.reader import load_battle_log, read_rows
from arena.battles import judge_run
from arena.cli import main
from arena.errors import InputError, NewerFormat
from arena.models import register_fake
from arena.records.log_rows import LOG_FORMAT
from arena.storage import Store
from arena.trust import load_votes, read_labelled
from arena.trust._labelled_file import LABELLED_FORMAT
from tests.battles.test_judges import _prefers_300, _run, _spec

pytestmark = pytest.mark.unit

NEWER = (
    "format {found} is newer than this agent-arena reads (up to {known}): it was written by a "
    "newer agent-arena; upgrade agent-arena to read it"
)


def _battle(a: str = "x", b: str = "y", **more: Any) -> dict[str, Any]:
    return {"model_a": a, "model_b": b, "winner": "model_a", "question_id": "q1", **more}


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _newer_log(tmp_path: Path, listed: bool = False) -> Path:
    """Ten plain rows, then one of the next format whose winner this release does not know."""
    rows = [_battle(f"m{i}", f"m{i + 1}", arena_format=LOG_FORMAT) for i in range(10)]
    rows.append(_battle(winner="model_c", arena_format=LOG_FORMAT + 1))
    if listed:
        path = tmp_path / "log.json"
        path.write_text(json.dumps(rows))
        return path
    return _jsonl(tmp_path / "log.jsonl", rows)


def test_the_export_says_its_format_on_every_row_and_reads_back(
    store: Store, db_url: str, tmp_path: Path
) -> None:
    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judge_run(store, run_id, _spec(), progress=False)
    out = tmp_path / "battles.jsonl"
    assert main(["battles", "export", "-o", str(out), "--db", db_url]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and {r["arena_format"] for r in rows} == {LOG_FORMAT}
    fast, slow = load_battle_log(out), read_rows(out)  # the pyarrow path and the row reader
    assert fast.models == slow.models and len(fast.outcome) == len(rows)
    assert len(load_votes(out)) == len(rows)


@pytest.mark.parametrize("listed", [False, True], ids=["jsonl", "json-list"])
def test_a_newer_battle_log_row_is_refused_naming_file_row_and_version(
    tmp_path: Path, listed: bool
) -> None:
    log = _newer_log(tmp_path, listed)
    for read in (load_battle_log, read_rows):
        with pytest.raises(NewerFormat) as caught:
            read(log)
        assert str(caught.value) == (
            f"file {log}, row 11, field arena_format: battle log "
            + NEWER.format(found=LOG_FORMAT + 1, known=LOG_FORMAT)
        )


@pytest.mark.parametrize("first", [{}, {"arena_format": LOG_FORMAT}], ids=["unversioned", "v1"])
def test_the_fast_path_leaves_a_newer_but_otherwise_valid_row_to_the_row_reader(
    tmp_path: Path, first: dict[str, int]
) -> None:
    rows = [_battle(f"m{i}", f"m{i + 1}", **first) for i in range(10)]
    assert read_fast(_jsonl(tmp_path / "now.jsonl", rows), ()) is not None
    later = _jsonl(tmp_path / "later.jsonl", [*rows, _battle(arena_format=LOG_FORMAT + 1)])
    assert read_fast(later, ()) is None
    with pytest.raises(NewerFormat, match="row 11, field arena_format: battle log format 2 "):
        load_battle_log(later)


def test_ratings_on_a_newer_log_is_exit_2_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _newer_log(tmp_path)
    assert main(["ratings", "--battles", str(log)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"arena: error: file {log}, row 11, field arena_format: battle log ")
    assert f"format {LOG_FORMAT + 1} is newer than this agent-arena reads" in line


def test_a_newer_vote_row_is_refused(tmp_path: Path) -> None:
    votes = _jsonl(
        tmp_path / "votes.jsonl",
        [_battle(judge="human:ann"), {"arena_format": LOG_FORMAT + 1, "verdict": "A"}],
    )
    with pytest.raises(NewerFormat) as caught:
        load_votes(votes)
    assert str(caught.value).startswith(f"file {votes}, line 2, field arena_format: battle log ")


def _label(**more: Any) -> dict[str, Any]:
    return {"source": "llmbar", "score": 0.5, "said": "model_a", "label": "model_b", **more}


def test_a_newer_labelled_row_is_refused_and_version_1_reads(tmp_path: Path) -> None:
    newer = _jsonl(
        tmp_path / "labels.jsonl",
        [_label(arena_format=LABELLED_FORMAT), {"arena_format": LABELLED_FORMAT + 1, "p": 1}],
    )
    with pytest.raises(NewerFormat) as caught:
        read_labelled(newer)
    assert str(caught.value) == (
        f"file {newer}, line 2, field arena_format: labelled-verdicts file "
        + NEWER.format(found=LABELLED_FORMAT + 1, known=LABELLED_FORMAT)
    )
    plain = _jsonl(tmp_path / "plain.jsonl", [_label(), _label(arena_format=1)])
    assert len(read_labelled(plain)) == 2  # no version: format 1


@pytest.mark.parametrize("bad", ["2", 0, True, 1.5])
def test_a_format_that_is_not_a_whole_number_is_refused(tmp_path: Path, bad: Any) -> None:
    log = _jsonl(tmp_path / "log.jsonl", [_battle(), _battle(arena_format=bad)])
    with pytest.raises(InputError) as caught:
        load_battle_log(log)
    assert str(caught.value) == (
        f"file {log}, row 2, field arena_format: must be a whole number >= 1 (the battle log "
        f"format's version), got {bad!r}"
    )
    labels = _jsonl(tmp_path / "labels.jsonl", [_label(arena_format=bad)])
    with pytest.raises(InputError, match="line 1, field arena_format: must be a whole number"):
        read_labelled(labels)

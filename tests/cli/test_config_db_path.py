"""`db:` in arena.yaml takes a plain SQLite file path as well as a URL (user trial after issue
36: `db: arena.db` was refused as "not a database URL"): the file is relative to the
arena.yaml, whatever folder the command runs from; anything else is exit 2 saying exactly
what to write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.storage import Store
from tests.cli.test_config_defaults import _project, _run

pytestmark = pytest.mark.unit

DATASET = "run:\n  dataset: golden/cases.json\n"


@pytest.mark.parametrize("path", ["arena.db", "data.sqlite", "./store.sqlite3"])
def test_a_plain_path_is_an_sqlite_file_beside_the_arena_yaml(
    path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "project", f"db: {path}\n{DATASET}")
    monkeypatch.chdir(project / "sub")
    assert _run(project) == 0, capsys.readouterr().err
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    database = (project / path).resolve()
    assert database.is_file() and not (project / "sub" / path).exists()
    assert Store(f"sqlite:///{database}").run(run_id).status == "finished"
    assert main(["runs", "--json"]) == 0  # from the subfolder, without --db: the same file
    assert [r["id"] for r in json.loads(capsys.readouterr().out)] == [run_id]


def test_an_absolute_path_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere.db"
    project = _project(tmp_path / "project", f"db: {elsewhere}\n{DATASET}")
    monkeypatch.chdir(project)
    assert _run(project) == 0, capsys.readouterr().err
    assert elsewhere.is_file() and not (project / "elsewhere.db").exists()


def test_neither_a_url_nor_an_sqlite_path_says_what_to_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "project", f"db: db-server/arena\n{DATASET}")
    monkeypatch.chdir(project)
    assert _run(project) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: error: file arena.yaml, field db: "), err
    assert "sqlite:///arena.db" in err and "a path ending in .db" in err, err

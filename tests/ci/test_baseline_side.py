"""The pieces of the baseline's side of changed cases that need no agent run: reading the
rerun's run id, the database URL handed to it, and the reasons it cannot run."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from arena.ci._baseline_side import BASE_BRANCH_VARIABLES, SideFailed, _db_url, _run_id
from arena.ci._worktree import CommitUnavailable
from arena.gate import BaselineSide, GateConfig, run_baseline_side
from arena.scoring._baseline import Baseline
from arena.storage import Store

pytestmark = pytest.mark.unit


def test_the_run_id_is_read_past_what_an_agent_printed() -> None:
    printed = 'thinking...\n{"oops": 1}\n{\n  "run_id": 7,\n  "resumed": false\n}\n'
    assert _run_id(printed) == 7
    assert _run_id('{\n  "run_id": 3\n}\n') == 3
    with pytest.raises(SideFailed, match="printed no run id"):
        _run_id("Traceback ...\n")


def test_a_relative_sqlite_file_is_handed_over_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _db_url("sqlite:///arena.db") == f"sqlite:///{tmp_path / 'arena.db'}"
    assert _db_url(f"sqlite:///{tmp_path}/x.db") == f"sqlite:///{tmp_path}/x.db"
    url = "postgresql+psycopg://u:secret@db/arena"
    assert _db_url(url) == url
    with pytest.raises(CommitUnavailable, match="in-memory database"):
        _db_url("sqlite://")


def _baseline(**extra: object) -> Baseline:
    fields = {
        "name": "base",
        "variant": "agent",
        "variant_hash": "abc",
        "dataset": "d",
        "suite_score": 1.0,
        "pass_rate": 1.0,
        "cases": {},
    }
    return Baseline.model_validate(fields | extra)


def _side(tmp_path: Path, baseline: Baseline) -> BaselineSide:
    config = GateConfig(base_dir=str(tmp_path))
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    return run_baseline_side(store, config, baseline, "golden.json", ["C-1"], "agent")


def test_why_the_baseline_side_cannot_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in BASE_BRANCH_VARIABLES:  # not in a pull request's CI: no merge base to try
        monkeypatch.delenv(name, raising=False)
    config = {"name": "agent", "model": {"spec": "fake:x"}}
    side = _side(tmp_path, _baseline(variant_config=config, provenance={"commit": "abc1234"}))
    assert not side.ran and side.message.startswith("baseline commit unavailable: ")
    assert side.message.endswith("is not in a git repository")
    side = _side(tmp_path, _baseline())
    assert side.message == (
        "baseline side not run: the baseline records no variant configuration (save it again)"
    )
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    side = _side(tmp_path, _baseline(variant_config=config))
    assert side.message == (
        "baseline commit unavailable: the baseline records no commit (save it again from a "
        "git checkout)"
    )

"""`arena runs` gives each unfinished run the hint its status calls for: an interrupted run
(Ctrl-C, SIGTERM, an error) is resumed by its command and was not killed; only a run left
`running` may have been killed (trial 2, Ctrl-C finding)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.golden import GoldenDataset
from arena.storage import Store

pytestmark = pytest.mark.unit


def _open(store: Store, key: str) -> int:
    dataset = GoldenDataset.model_validate(
        {
            "name": "d",
            "available_tools": [],
            "test_cases": [
                {"id": "C", "input": "hi", "category": "happy_path", "tier": "critical"}
            ],
        }
    )
    run_id, _ = store.open_run(key, store.ensure_dataset(dataset), {})
    return run_id


def test_an_interrupted_run_is_told_to_resume_not_that_it_was_killed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    store = Store(db)
    interrupted = _open(store, "a")
    store.finish_run(interrupted, "interrupted")
    assert main(["runs", "--db", db]) == 0
    out = capsys.readouterr().out
    hint = next(line for line in out.splitlines() if line.startswith("run(s)"))
    assert hint.startswith(f"run(s) {interrupted} not finished (interrupted)")
    assert "resume" in hint and "killed" not in hint and "`running`" not in hint


def test_only_runs_left_running_are_counted_as_maybe_killed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    store = Store(db)
    interrupted, running = _open(store, "a"), _open(store, "b")
    store.finish_run(interrupted, "interrupted")
    assert main(["runs", "--db", db]) == 0
    hints = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("run(s)")]
    killed = [ln for ln in hints if "killed" in ln]
    assert len(killed) == 1 and killed[0].startswith(f"run(s) {running} not finished")
    assert f"--mark-failed {running}" in killed[0]
    assert any(ln.startswith(f"run(s) {interrupted} not finished (interrupted)") for ln in hints)

"""The app's leaderboard shows a simulator-errors column only when a run has some."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.evaluation.run_scores import score_run
from arena.storage import Store
from tests.scoring.test_simulator_error_surfaces import fill

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


def _board(url: str, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, object], str]:
    from streamlit.testing.v1 import AppTest

    from arena.app import data

    monkeypatch.setenv("ARENA_DB_URL", url)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    data.get_store.clear()
    board = next(f.value for f in at.dataframe if "Pass rate" in f.value.columns)
    captions = "\n".join(str(c.value) for c in at.caption)
    return board.set_index("Variant").to_dict(), captions


def test_the_leaderboard_shows_simulator_errors_when_there_are_some(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(db_url)
    score_run(store, fill(store))
    board, captions = _board(db_url, monkeypatch)
    assert board["Simulator errors"] == {"v": 1, "w": 0}
    assert board["Pass rate"]["v"] == "1/1 (100%)"
    assert "Simulator errors (the simulated user failed) are not agent failures" in captions

"""The Production shadow tab (AppTest, in-process, no model calls): a shadow run beside the
golden runs, its win rate over the shadow runs of the same candidate and traces source, and the
traces it lost with both answers side by side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from arena.cli import main
from arena.production import shadow_history
from arena.storage import Store
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

if TYPE_CHECKING:
    import pandas as pd
    from streamlit.testing.v1 import AppTest

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"
JUDGE = "fake:prefers-good/text"


def _shadow(db: str, traces: str, candidate: str, *more: str) -> None:
    argv = ["shadow", "--traces", traces, "--judge", JUDGE, "--db", db, "--json", *more]
    if candidate:
        argv += ["--candidate", candidate]
    assert main(argv) == 0


def _runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, list[int]]:
    """Shadow runs: `cand` worse then better on one source, `other` on it, `cand` on a second
    source, and an --evaluate-only run; their ids in that order."""
    register_models()
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(3, answer="GOOD answer"))
    elsewhere = write_jsonl(tmp_path / "other.jsonl", trace_rows(2, answer="GOOD answer"))
    (tmp_path / "worse").mkdir()
    (tmp_path / "better").mkdir()
    worse = variant_file(tmp_path / "worse", "cand", "worse")
    better = variant_file(tmp_path / "better", "cand", "better")
    for source, candidate in [
        (traces, worse),
        (traces, better),
        (traces, variant_file(tmp_path, "other", "worse")),
        (elsewhere, worse),
    ]:
        _shadow(db, source, candidate)
    _shadow(db, traces, "", "--evaluate-only")
    capsys.readouterr()
    return db, [r.id for r in sorted(Store(db).runs(), key=lambda r: r.id)]


def _app(url: str, monkeypatch: pytest.MonkeyPatch, run_id: int) -> AppTest:
    monkeypatch.setenv("ARENA_DB_URL", url)
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run(timeout=60)
    at.selectbox(key="run").select(run_id).run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _table(at: AppTest, column: str) -> pd.DataFrame:
    for frame in at.dataframe:
        if column in frame.value.columns:
            return frame.value
    raise AssertionError(f"no table with a {column!r} column")


def test_a_shadow_run_shows_its_win_rate_over_time_and_its_lost_traces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, (worse, better, other, elsewhere, checked) = _runs(tmp_path, capsys)
    history = shadow_history(Store(db), better)
    assert [p.run_id for p in history] == [worse, better]  # same candidate, same source
    assert [p.win_rate for p in history] == [0.0, 0.5]  # lost all, then tied all
    assert all(p.interval is not None and p.interval[0] < p.interval[1] for p in history)

    at = _app(db, monkeypatch, worse)
    rows = _table(at, "95% low")
    assert list(rows["Run"].str.split(" ").str[0]) == [f"#{worse}", f"#{better}"]
    assert list(rows["Win rate"]) == ["0%", "50%"] and list(rows["Battles"]) == [3, 3]

    def share(column: str) -> pd.Series:
        return rows[column].str.rstrip("%").astype(float)

    assert (share("95% low") <= share("Win rate")).all()
    assert (share("Win rate") <= share("95% high")).all()
    lost = _table(at, "Production answer").set_index("Trace")
    assert sorted(lost.index) == ["t0", "t1", "t2"]
    assert lost.loc["t1", "Production answer"] == "GOOD answer 1"
    assert lost.loc["t1", "Candidate answer"] == "I am not sure."
    assert lost.loc["t1", "Query"] == "What is the capital of country number 1?"
    at.selectbox(key="shadow_loss").select(1).run(timeout=60)
    shown = [c.value for c in at.code]
    chosen = at.selectbox(key="shadow_loss").format_func(1)
    assert f"GOOD answer {chosen[1:]}" in shown and "I am not sure." in shown

    at = _app(db, monkeypatch, better)
    assert any("lost no trace" in s.value for s in at.success)
    assert len(_table(at, "95% low")) == 2
    assert len(shadow_history(Store(db), other)) == 1
    assert len(shadow_history(Store(db), elsewhere)) == 1

    at = _app(db, monkeypatch, checked)
    assert any("is not a shadow run with a candidate" in i.value for i in at.info)
    assert json.dumps(shadow_history(Store(db), checked)) == "[]"

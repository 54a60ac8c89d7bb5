"""The Streamlit app on a scripted database (AppTest, in-process, no model calls)."""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from arena.storage import Store, database_problem
from tests.support.app_fixtures import SCRIPT_PAYLOAD, VARIANT_NAMES, fill_demo_db, fill_unjudged_db

if TYPE_CHECKING:
    from types import ModuleType

    import pandas as pd
    from streamlit.testing.v1 import AppTest


def _data() -> ModuleType:
    # Imported lazily: `pytest -m unit` deselects this module and should not pay for Streamlit.
    from arena.app import data

    return data


pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Two judged and scored runs, filled once for the module (in RAM when /dev/shm exists:
    SQLite commits each result, and fsyncs dominate the fill time on disk)."""
    shm = Path("/dev/shm")
    parent = shm if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path_factory.mktemp("app")
    with tempfile.TemporaryDirectory(dir=parent, prefix="arena-app-test-") as folder:
        url = f"sqlite:///{Path(folder) / 'arena.db'}"
        fill_demo_db(url)
        yield url
        _data().get_store.clear()  # release the cached engine before the folder goes


def _app(url: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ARENA_DB_URL", url)
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _table(at: AppTest, column: str) -> pd.DataFrame:
    for frame in at.dataframe:
        if column in frame.value.columns:
            return frame.value
    raise AssertionError(f"no table with a {column!r} column")


def _texts(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.success, *at.error]
    return "\n".join(str(p.value) for p in parts)


def test_leaderboard_lists_variants_with_ratings(
    demo_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _app(demo_url, monkeypatch)
    assert at.title[0].value == "Agent Arena leaderboard"
    board = _table(at, "Rating (95% CI)")
    assert list(board["Variant"]) == ["prompt-v2", "baseline", "small-model", "broken-no-tools"]
    assert set(board["Variant"]) == set(VARIANT_NAMES)
    ratings = [int(r.split(" ")[0].replace(",", "")) for r in board["Rating (95% CI)"]]
    assert ratings == sorted(ratings, reverse=True) and ratings[0] > 1000 > ratings[-1]
    assert board["Rank"].iloc[0] == "1"
    assert all("–" in r for r in board["Rating (95% CI)"])  # 18 battles each: intervals
    assert list(board.columns[:7]) == [
        "Rank",
        "Variant",
        "Description",
        "Pass rate",
        "Rating (95% CI)",
        "Tokens / query",
        "p90",
    ]
    assert "Version" not in board and "Elo" not in board  # behind the advanced toggle
    assert board["Description"].str.len().gt(0).all()
    assert board.set_index("Variant")["Pass rate"]["broken-no-tools"] == "0/3 (0%)"
    at.toggle(key="board_advanced").set_value(True).run()
    advanced = _table(at, "Version")
    assert advanced["Version"].str.fullmatch(r"[0-9a-f]{12}").all()
    assert {"Elo", "Crashed", "Win rate", "Battles"} <= set(advanced.columns)
    # The judge's banners are on the Judge health tab, each with a plain reading.
    assert "Bradley-Terry" in _texts(at) and at.warning.len == 1
    assert "prefers longer answers" in at.warning[0].value
    assert "Judge fake\\:judge/text: decisive-pair accuracy" in _texts(at)
    assert "In plain words: a longer answer tends to win" in _texts(at).replace("\\", "")
    health = _table(at, "Consistency")
    assert health["Judge"].tolist() == ["fake:judge/text"]
    assert list(health.columns[:4]) == [
        "Judge",
        "Trust",
        "Decisive-pair accuracy",
        "Accuracy 95% CI",
    ]
    assert health["Trust"].tolist() == ["yes: beats chance"]
    # Each table again as plain HTML for screen readers, every column in the page.
    texts = [t.value for t in at.table]
    assert any(list(t.columns) == list(advanced.columns) for t in texts)
    assert any(list(t["Judge"]) == ["fake:judge/text"] for t in texts if "Judge" in t)


def _pass_rates(at: AppTest) -> dict[str, str]:
    board = _table(at, "Pass rate")
    return dict(zip(board["Variant"], board["Pass rate"], strict=True))


def test_filters_change_the_figures(demo_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(demo_url, monkeypatch)
    assert at.selectbox(key="tier").value == "critical"
    assert _pass_rates(at)["small-model"] == "3/3 (100%)"
    at.selectbox(key="tier").select(_data().ALL).run()
    assert _pass_rates(at)["small-model"] == "4/6 (66.7%)"
    at.selectbox(key="category").select("multi_step").run()
    rates = _pass_rates(at)
    assert rates["small-model"] == "0/1 (0%)" and rates["baseline"] == "1/1 (100%)"
    assert "multi\\_step" in _texts(at)
    at.selectbox(key="category").select(_data().ALL).run()
    at.selectbox(key="run").select(1).run()
    assert not at.exception
    board = _table(at, "Rating (95% CI)")
    assert set(board["Variant"]) == {"baseline", "small-model", "broken-no-tools"}
    assert "Run **#1**" in _texts(at)


def test_compare_shows_verdict_and_outputs_as_text(
    demo_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _app(demo_url, monkeypatch)
    shown = [c.value for c in at.code]  # default case HP-001: baseline called calculate
    assert '{\n  "expression": "0.25 * 1200"\n}' in shown and "300" in shown
    assert any("Sub-agent" in m.value for m in at.markdown)
    at.selectbox(key="cmp_candidate").select("broken-no-tools").run()
    at.toggle(key="cmp_advanced").set_value(True).run()
    assert not at.exception
    assert any("WORSE" in e.value and "broken" in e.value for e in at.error)
    cases = _table(at, "Case")
    assert set(cases["Tier"]) == {"critical"}  # the sidebar's tier filters the cases
    row = cases[cases["Case"] == "GF-001"].iloc[0]
    assert SCRIPT_PAYLOAD in row["broken-no-tools output"]
    assert row["baseline output"] == "I can't send emails: I have no email tool."
    assert row["Judge winner"] == "baseline"
    assert "baseline better" in (
        row["Verdict, baseline shown first"],
        row["Verdict, broken-no-tools shown first"],
    )
    assert row["Rationale (1st order)"] and row["Rationale (2nd order)"]
    at.selectbox(key="cmp_case").select(int(cases.index[cases["Case"] == "GF-001"][0])).run()
    shown = [c.value for c in at.code]
    assert any(SCRIPT_PAYLOAD in value for value in shown)
    assert all("<script>" not in m.value for m in [*at.markdown, *at.caption])
    assert any("is more accurate" in t.value for t in at.text)
    assert any("Trajectory of broken" in e.label for e in at.expander)
    at.selectbox(key="tier").select(_data().ALL).run()
    errored = _table(at, "Case").set_index("Case").loc["HP-002"]
    assert errored["broken-no-tools output"].startswith("[error] RuntimeError")


def test_unjudged_run_shows_golden_figures_and_the_judge_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    fill_unjudged_db(url)
    at = _app(url, monkeypatch)
    assert any("arena judge 1" in i.value for i in at.info)
    board = _table(at, "Rating (95% CI)")
    assert set(board["Variant"]) == {"baseline", "small-model"}
    assert (board["Rating (95% CI)"] == "-").all() and (board["Pass rate"] != "-").all()
    assert "Not judged yet" in _texts(at)


@pytest.mark.parametrize("kind", ["missing", "empty", "no-runs", "not-a-database"])
def test_empty_or_missing_database_is_a_friendly_page(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "arena.db"
    url = f"sqlite:///{path}"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "no-runs":
        Store(url)
    elif kind == "not-a-database":
        path.write_text("certainly not SQLite " * 100)
    at = _app(url, monkeypatch)
    message = " ".join(i.value for i in at.info)
    expected = {
        "missing": "no arena database",
        "empty": "is empty",
        "no-runs": "holds no runs",
        "not-a-database": "could not be read",
    }[kind]
    assert expected in message and "arena" in message
    assert any("arena demo" in c.value and "arena judge" in c.value for c in at.code)
    assert kind != "missing" or not path.exists()
    if kind == "empty":
        assert path.stat().st_size == 0


def test_category_chart_data_follows_the_filters(demo_url: str) -> None:
    data = _data()
    every = data.category_pass_rates(demo_url, 2)
    assert set(every["variant"]) == set(VARIANT_NAMES) and every["category"].nunique() > 1
    one = data.category_pass_rates(demo_url, 2, data.ALL, "multi_step")
    rates = dict(zip(one["variant"], one["pass_rate"], strict=True))
    assert set(one["category"]) == {"multi_step"} and len(rates) == len(VARIANT_NAMES)
    assert rates["small-model"] == 0.0 and rates["baseline"] == 1.0
    golden = data.golden_figures(demo_url, 2, data.ALL, "multi_step").set_index("variant")
    assert golden["pass_rate"].to_dict() == rates
    assert data.category_pass_rates(demo_url, 2, "critical", "no_such_category").empty


def test_arena_app_command_execs_streamlit_with_the_db_url(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.cli import app as cli_app

    parser = argparse.ArgumentParser(prog="arena")
    cli_app.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["app", "--db", "sqlite:///x.db", "--port", "8600"])
    seen: dict[str, Any] = {}

    def fake_exec(file: str, argv: list[str], env: dict[str, str]) -> None:
        seen.update(file=file, argv=argv, env=env)

    monkeypatch.setattr(cli_app.os, "execvpe", fake_exec)
    assert args.handler(args) == 0
    argv = seen["argv"]
    assert argv[1:4] == ["-m", "streamlit", "run"] and argv[4] == str(
        APP.parent / "arena" / "app" / "page.py"
    )
    assert argv[argv.index("--server.port") + 1] == "8600"
    assert argv[argv.index("--server.headless") + 1] == "true"
    assert seen["env"]["ARENA_DB_URL"] == "sqlite:///x.db"


def test_sqlite_reads_do_not_lock_the_database(demo_url: str) -> None:
    path = demo_url.removeprefix("sqlite:///")
    assert database_problem(demo_url) is None
    with sqlite3.connect(path) as conn:  # a writer can still get in after the check
        conn.execute("CREATE TABLE IF NOT EXISTS _probe (x INTEGER)")
        conn.execute("DROP TABLE _probe")


def test_trends_say_where_each_run_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    for repeats, (commit, branch) in enumerate(
        (("c0ffee1234567", "main"), ("badbad7654321", "prompt-v3")), start=1
    ):
        monkeypatch.setenv("ARENA_COMMIT", commit)
        monkeypatch.setenv("ARENA_BRANCH", branch)
        monkeypatch.setenv("ARENA_CI_URL", f"https://ci.example/runs/{commit[:4]}")
        fill_unjudged_db(url, repeats)  # another run each time
    at = _app(url, monkeypatch)
    origins = _table(at, "CI run")
    assert list(origins["commit"]) == ["c0ffee1234567", "badbad7654321"]
    assert list(origins["branch"]) == ["main", "prompt-v3"]
    assert list(origins["CI run"]) == [
        "https://ci.example/runs/c0ff",
        "https://ci.example/runs/badb",
    ]
    assert origins["run"].str.endswith(" c0ffee1 (main)").tolist() == [True, False]
    assert "Where each run came from" in _texts(at)

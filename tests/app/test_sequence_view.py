"""The app's confidence-sequence chart (AppTest, in-process, no model calls)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.app_fixtures import fill_demo_db

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The demo database: judged and scored runs."""
    url = f"sqlite:///{tmp_path_factory.mktemp('seq') / 'arena.db'}"
    fill_demo_db(url)
    yield url
    from arena.app import data

    data.get_store.clear()


def test_the_sequence_follows_the_seeded_order_and_stays_in_bounds(demo_url: str) -> None:
    from arena.app.sequence_view import load_sequence, sequence_chart
    from arena.sequential._trace import case_order
    from arena.storage import Store

    store = Store(demo_url)
    run = store.run(1)
    key = store.judge_keys(1)[0][0]
    points = load_sequence(demo_url, 1, "baseline", "broken-no-tools", key)
    assert points and [p["n"] for p in points] == list(range(1, len(points) + 1))
    order = case_order(run.config["cases"], 0)
    assert [p["case_id"] for p in points] == [
        c for c in order if c in {p["case_id"] for p in points}
    ]
    assert all(0 <= p["lower"] <= p["mean"] <= p["upper"] <= 1 for p in points)
    assert points[-1]["mean"] < 0.5  # the broken variant loses
    spec = sequence_chart(points).to_dict()
    assert len(spec["layer"]) == 3


def test_the_compare_tab_shows_the_chart(demo_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_DB_URL", demo_url)
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    box = next(e for e in at.expander if e.label == "Confidence sequence over cases")
    assert any("interval holds at every case" in c.value for c in box.caption)
    assert len(box.get("vega_lite_chart")) == 1

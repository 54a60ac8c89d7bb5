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


def test_without_a_stored_plan_the_sequence_takes_the_derived_order(demo_url: str) -> None:
    from arena.app.sequence_view import load_sequence, sequence_chart
    from arena.compare.sequential._sequence import derive_seed
    from arena.compare.sequential._trace import case_order
    from arena.storage import Store

    store = Store(demo_url)
    run = store.run(1)
    key = store.judge_keys(1)[0][0]
    found = load_sequence(demo_url, 1, "baseline", "broken-no-tools", key)
    points = found["points"]
    assert found["plan"] is None and found["alpha"] == 0.05
    assert points and [p["n"] for p in points] == list(range(1, len(points) + 1))
    hashes = run.config["variants"]
    seed = derive_seed(store.run_dataset(1), [hashes["baseline"], hashes["broken-no-tools"]])
    order = case_order(run.config["cases"], seed)
    assert [p["case_id"] for p in points] == [
        c for c in order if c in {p["case_id"] for p in points}
    ]
    assert all(0 <= p["lower"] <= p["mean"] <= p["upper"] <= 1 for p in points)
    assert points[-1]["mean"] < 0.5  # the broken variant loses
    spec = sequence_chart(points).to_dict()
    assert len(spec["layer"]) == 3


def test_a_stored_plan_is_drawn_as_decided(demo_url: str) -> None:
    """The chart shows what `arena compare --sequential` decided on: the stored outcomes in
    their order, at the plan's alpha and margin, on the plan's boundary."""
    from arena.app.sequence_view import load_sequence, sequence_chart
    from arena.compare.sequential._sequence import Evidence, SequencePlan, save_plan, sequence_key
    from arena.sequential import THREE_WAY
    from arena.storage import Store

    store = Store(demo_url)
    run = store.run(1)
    judge = store.judge_keys(1)[0][0]
    hashes = run.config["variants"]
    other = next(n for n in hashes if n not in ("baseline", "broken-no-tools"))
    key = sequence_key(run.dataset, hashes["baseline"], hashes[other], judge, THREE_WAY)
    cases = list(reversed(run.config["cases"]))[:4]
    evidence = [
        Evidence(case_id=c, case_hash="h", outcome=o)
        for c, o in zip(cases, [1, 1, 0.5, 1], strict=True)
    ]
    plan = SequencePlan(
        key=key,
        seed=7,
        seed_source="explicit",
        order=cases,
        horizon=2,
        alpha=0.1,
        margin=0.1,
        budget=4,
        first_budget=4,
        question=THREE_WAY,
        finite=False,
        repeats=1,
        boundary="spending",
        evidence=evidence,
    )
    save_plan(store, plan)
    load_sequence.clear()
    found = load_sequence(demo_url, 1, "baseline", other, judge)
    assert [p["case_id"] for p in found["points"]] == cases
    assert [p["outcome"] for p in found["points"]] == [1, 1, 0.5, 1]
    assert found["alpha"] == 0.1 and found["margin"] == 0.1 and not found["anytime"]
    assert "seed 7 (explicit --seed)" in found["plan"]
    expected = plan.sequence()
    for p in found["points"]:
        expected.update([p["outcome"]])
    low, high = expected.bounds()
    assert found["points"][-1]["lower"] == pytest.approx(float(low[0]))
    assert found["points"][-1]["upper"] == pytest.approx(float(high[0]))
    assert "90%" in sequence_chart(found["points"], 0.1, 0.1).to_dict()["title"]


def test_the_compare_tab_shows_the_chart(demo_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_DB_URL", demo_url)
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    box = next(e for e in at.expander if e.label == "Confidence sequence over cases")
    assert any("interval holds at every case" in c.value for c in box.caption)
    assert len(box.get("vega_lite_chart")) == 1

"""The Vote tab under ``streamlit.testing``: blind pairs, four buttons, names revealed after
the vote, votes counted, the voter offered as a judge with its own ratings, and the model
judges' agreement with the people in the Judge health tab."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.storage import Store
from arena.votes import VOTE_CHOICES
from judges import human_judge
from tests.support.app_fixtures import SCRIPT_PAYLOAD, VARIANT_NAMES, fill_demo_db

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


@pytest.fixture
def demo_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    fill_demo_db(url)
    return url


def _texts(at: object) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.success]  # type: ignore[attr-defined]
    return "\n".join(str(p.value) for p in parts)


def test_votes_are_blind_counted_rated_and_compared(
    demo_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ARENA_DB_URL", demo_url)
    monkeypatch.setenv("ARENA_USER", "ann")
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_input(key="voter").value == "ann"
    assert "**0** by you" in _texts(at)
    for step, winner in enumerate(["model_a", "model_b", "tie", "tie (bothbad)", "model_a"]):
        shown = [c.value for c in at.code]
        revealed = [s.value for s in at.success if s.value.startswith("Vote stored")]
        assert step > 0 or not revealed  # nothing is revealed before the first vote
        assert len(shown) >= 3  # the question and both answers, as code blocks (text)
        assert all(SCRIPT_PAYLOAD not in m.value for m in [*at.markdown, *at.caption])
        assert [b.label for b in at.button if b.key and b.key.startswith("vote_")] == list(
            VOTE_CHOICES.values()
        )
        at.button(key=f"vote_{winner}").click().run()
        assert not at.exception, [e.value for e in at.exception]
        (stored,) = [s.value for s in at.success if s.value.startswith("Vote stored")]
        names = re.findall(r"[AB] was \*\*(.+?)\*\*", stored.replace("\\", ""))
        assert len(names) == 2 and set(names) <= set(VARIANT_NAMES) and names[0] != names[1]
        assert f"**{step + 1}** by you" in _texts(at)
    store = Store(demo_url)
    votes = store.battles(2, human_judge("ann").key)
    assert [b.winner for b in votes] == ["model_a", "model_b", "tie", "tie (bothbad)", "model_a"]
    assert len({frozenset((b.result_a_id, b.result_b_id)) for b in votes}) == 5  # never twice

    # The sidebar offers the voter as a judge, after the model judge; its ratings are its own.
    judge = at.selectbox(key="judge")
    assert judge.options[0].startswith("fake:judge/text")
    assert judge.options[-1] == "human:ann · 5 votes"
    judge.select(human_judge("ann").key).run()
    at.toggle(key="board_advanced").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    board = next(f.value for f in at.dataframe if "Rating (95% CI)" in f.value.columns)
    assert board["Battles"].sum() == 2 * 5
    voted = board[board["Battles"] > 0]
    assert len(voted) >= 2 and (voted["Rating (95% CI)"] != "-").all()
    # A variant with fewer than 5 votes gets neither a rank nor an interval, and it says so.
    few = voted[voted["Battles"] < 5]
    assert (few["Rank"] == "-").all() and not few["Rating (95% CI)"].str.contains("–").any()
    assert (voted[voted["Battles"] >= 5]["Rank"] != "-").all()
    for name in few["Variant"]:
        assert f"{name}: " in _texts(at).replace("\\", "") and "fewer than 5" in _texts(at)

    # Judge health: the model judge's agreement with the people, live.
    tables = [f.value for f in at.dataframe]
    people = next(t for t in tables if "With ties" in t.columns)
    assert (
        people["Judge"].tolist() == ["fake:judge/text"]
        and people["With ties"].str.endswith("of 5").all()
    )
    health = next(t for t in tables if "Decisive-pair accuracy" in t.columns)
    assert set(health["Judge"]) == {"fake:judge/text", "human:ann"}
    assert "5 votes by human:ann" in _texts(at).replace("\\", "")


def test_no_name_no_vote(demo_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ARENA_DB_URL", demo_url)
    monkeypatch.delenv("ARENA_USER", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.run()
    assert any("Enter your name in the sidebar" in i.value for i in at.info)
    assert not [b for b in at.button if b.key and b.key.startswith("vote_")]
    at.text_input(key="voter").set_value("bob").run()
    assert [b.key for b in at.button if b.key and b.key.startswith("vote_")]

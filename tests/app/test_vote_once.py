"""The Vote tab under ``streamlit.testing``: a person who already voted on the pair on screen
(in another tab, under another spelling of their name) is told "already voted", the first
vote stands and nothing more is stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.storage import Store
from arena.votes import VotePair, cast_vote
from judges import human_judge
from tests.support.app_fixtures import fill_demo_db

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"
RUN = 2


def test_a_second_vote_on_the_pair_on_screen_is_refused_as_already_voted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    url = f"sqlite:///{tmp_path / 'arena.db'}"
    fill_demo_db(url)
    monkeypatch.setenv("ARENA_DB_URL", url)
    monkeypatch.setenv("ARENA_USER", "ann")
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    on_screen = VotePair.model_validate(at.session_state[f"vote_pair:{RUN}:ann"])
    # Another window, the name typed in full-width capitals: the same person.
    cast_vote(Store(url), on_screen, "ＡＮＮ", "model_b")
    at.button(key="vote_model_a").click().run()
    assert not at.exception, [e.value for e in at.exception]
    warnings = " ".join(w.value for w in at.warning)
    assert "You already voted on this pair" in warnings and "first vote stands" in warnings
    assert not [s.value for s in at.success if s.value.startswith("Vote stored")]
    votes = Store(url).battles(RUN, human_judge("ann").key)
    assert [(v.result_a_id, v.winner) for v in votes] == [(on_screen.result_a_id, "model_b")]
    assert any("**1** by you" in m.value for m in at.markdown)

"""The Vote tab's queue under ``streamlit.testing``: the pairs the judge abstained on come
first (the gate's pairs on critical cases before the rest), each saying why it is there and
how many remain; a vote takes the pair out of the queue and moves the leaderboard's ratings."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.storage import Store
from judges import human_judge
from tests.support.abstained import BECAUSE, GATE_CASES, GATE_PAIR, OTHER, RUN, abstain_demo_battles
from tests.support.app_fixtures import fill_demo_db

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


@pytest.fixture
def abstained_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    fill_demo_db(url)
    abstain_demo_battles(url)
    return url


def _texts(at: object) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.success]  # type: ignore[attr-defined]
    return "\n".join(str(p.value) for p in parts).replace("\\", "")


def _ratings(at: object) -> dict[str, int]:
    board = next(f.value for f in at.dataframe if "Rating (95% CI)" in f.value.columns)  # type: ignore[attr-defined]
    return {
        name: int(shown.split(" ")[0].replace(",", ""))
        for name, shown in zip(board["Variant"], board["Rating (95% CI)"], strict=True)
    }


def _vote_for_the_baseline(at: object) -> str:
    """Click the button of the answer that is not prompt-v2's (the baseline's, on the gate's
    pairs); returns the button's winner."""
    # The Vote tab is the last tab: its two answers are the last code blocks on the page
    # (the other tabs render code blocks of their own before it).
    answer_a = at.code[-2].value  # type: ignore[attr-defined]
    winner = "model_b" if BECAUSE in answer_a else "model_a"
    at.button(key=f"vote_{winner}").click().run()  # type: ignore[attr-defined]
    return winner


def test_abstained_pairs_come_first_say_why_and_votes_move_the_ratings(
    abstained_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ARENA_DB_URL", abstained_url)
    monkeypatch.setenv("ARENA_USER", "ann")
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    before = _ratings(at)
    text = _texts(at)
    assert "**3 pairs wait for a person**" in text
    assert "2 could move the gate verdict" in text
    assert "Why this pair:" in text and "critical case (confidence 0.55)" in text
    assert "could move the gate" in text

    for remaining in (2, 1):
        _vote_for_the_baseline(at)
        assert not at.exception, [e.value for e in at.exception]
        stored = next(s.value for s in at.success if s.value.startswith("Vote stored"))
        assert {"baseline", "prompt-v2"} <= set(stored.replace("\\", "").split("**"))
        wait = "pair waits" if remaining == 1 else "pairs wait"
        assert f"**{remaining} {wait} for a person**" in _texts(at)
    # The gate's pairs are done: the last abstained pair is of two other variants.
    assert "critical case" not in _texts(at) and "Why this pair:" in _texts(at)
    at.button(key="vote_tie").click().run()
    assert "wait for a person" not in _texts(at) and "waits for a person" not in _texts(at)
    assert "Why this pair:" not in _texts(at)  # random pairs now, nothing abstained left

    votes = Store(abstained_url).battles(RUN, human_judge("ann").key)
    voted = [(frozenset((v.variant_a, v.variant_b)), v.case_id) for v in votes]
    assert voted == [(GATE_PAIR, case) for case in sorted(GATE_CASES)] + [OTHER]
    after = _ratings(at)
    assert after["baseline"] > before["baseline"]  # the people preferred it where the judge
    assert after["prompt-v2"] < before["prompt-v2"]  # abstained

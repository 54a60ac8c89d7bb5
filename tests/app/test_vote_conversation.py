"""People voting on conversation pairs: both whole conversations shown turn by turn, and
pairs where either side's simulated user failed never offered, nor queued for people
(library and ``streamlit.testing``, scripted models, no model calls)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.battles import judge_run
from arena.evaluation.run_scores import score_run
from arena.leaderboard._rating_inputs import select_battles
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from arena.votes import open_pairs, pending_escalations
from judges import JudgeSpec
from tests.judges.stored_dialogues import conversation_run

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


def _abstained_conversation_run(store: Store, monkeypatch: pytest.MonkeyPatch) -> int:
    """The stored conversation run, judged, with its REFUND-01 battle abstained and an
    abstained battle on SIM-01 (whose simulated users failed) as an older judge stored it."""
    run_id = conversation_run(store, monkeypatch)
    score_run(store, run_id)
    register_fake("judge", ["Same. [[A=B]]"], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:judge")), progress=False)
    (battle,) = select_battles(store, run_id, None)
    assert battle.case_id == "REFUND-01"
    sim = {r.variant: r for r in store.results(run_id) if r.case_id == "SIM-01"}
    assert all(r.simulator_error for r in sim.values())
    a, b = sim[battle.variant_a], sim[battle.variant_b]
    for update in (
        {},
        {"case_id": "SIM-01", "result_a_id": a.id, "result_b_id": b.id},
    ):
        store.save_battle(battle.model_copy(update={**update, "abstained": True, "id": None}))
    return run_id


def test_simulator_errors_are_never_offered_nor_queued(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(db_url)
    run_id = _abstained_conversation_run(store, monkeypatch)
    assert [p.case_id for p in open_pairs(store, run_id, "ann")] == ["REFUND-01"]
    assert [e.battle.case_id for e in pending_escalations(store, run_id)] == ["REFUND-01"]


def _texts(at: object) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.success]  # type: ignore[attr-defined]
    return "\n".join(str(p.value) for p in parts).replace("\\", "")


def test_a_voter_sees_both_whole_conversations_turn_by_turn(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from arena.app import data

    store = Store(db_url)
    _abstained_conversation_run(store, monkeypatch)
    monkeypatch.setenv("ARENA_DB_URL", db_url)
    monkeypatch.setenv("ARENA_USER", "ann")
    try:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run(timeout=60)
        assert not at.exception, [e.value for e in at.exception]
        text = _texts(at)
        assert "**1 pair waits for a person**" in text  # SIM-01 is not queued
        assert "**Conversation A**" in text and "**Conversation B**" in text
        assert "Conversation of A: 3 turn(s)" in text and "Conversation of B: 3 turn(s)" in text
        shown = [c.value for c in at.code]
        for said in (
            "It's order 4471.",  # the user's turn 2, on both sides
            "Sure. What is your order number?",  # the careful agent's turn 1
            "Refund of 115 issued.",  # its turn 2
            "Refund of 2 issued.",  # the hasty agent's turn 1
        ):
            assert said in shown, said
        assert shown.count("Thanks, bye.") >= 2  # the last user turn of each side
        call = '{\n  "expression": "44 + 71"\n}'
        before = shown.count(call)  # the drill-down's; the vote hides tool calls by default
        at.checkbox(key="vote_trajectories").check().run()
        assert [c.value for c in at.code].count(call) == before + 1
        at.button(key="vote_model_a").click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert "Vote stored" in _texts(at)
        assert "You have voted on every pair" in _texts(at)  # SIM-01 is never offered
    finally:
        data.get_store.clear()

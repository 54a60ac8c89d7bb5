"""The app's drill-down on a stored conversation run: the dialogue turn by turn, one chat
message per speaker, each turn's tool calls in it (AppTest, in-process, no model calls)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.battles import judge_run
from arena.evaluation.run_scores import score_run
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec
from tests.judges.stored_dialogues import conversation_run

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


def test_the_drill_down_shows_each_side_of_a_conversation_turn_by_turn(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from arena.app import data

    store = Store(db_url)
    run_id = conversation_run(store, monkeypatch)
    score_run(store, run_id)
    register_fake("judge", ["Same. [[A=B]]"], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:judge")), progress=False)
    monkeypatch.setenv("ARENA_DB_URL", db_url)
    try:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run(timeout=60)
        assert not at.exception, [e.value for e in at.exception]
        labels = at.selectbox(key="cmp_case").options
        refund = next(i for i, label in enumerate(labels) if label.startswith("REFUND-01"))
        at.selectbox(key="cmp_case").set_value(refund).run()
        assert not at.exception, [e.value for e in at.exception]
        speakers = [m.name for m in at.chat_message]
        assert speakers == ["user", "assistant"] * 6  # 3 turns, both sides
        said = [[c.value for c in m.code] for m in at.chat_message]
        assert ["I want a refund for my blender."] in said and ["Thanks, bye."] in said
        assert [
            '{\n  "expression": "44 + 71"\n}',
            "115",
            "Refund of 115 issued.",
        ] in said  # the careful agent's turn 2: its tool call, observation and reply
        assert not any("Trajectory of" in e.label for e in at.expander)
        sim = next(i for i, label in enumerate(labels) if label.startswith("SIM-01"))
        at.selectbox(key="cmp_case").set_value(sim).run()
        assert any("simulated user failed" in w.value for w in at.warning)
    finally:
        data.get_store.clear()

"""Dialogues are stored in their own table, beside their result, and read back with it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from arena.golden import GoldenDataset
from arena.records.dialogue import Dialogue, DialogueTurn
from arena.records.results import RunResult
from arena.storage import Store
from tests.support.old_db import as_unversioned

pytestmark = pytest.mark.unit


def _run(store: Store) -> int:
    dataset = GoldenDataset.model_validate(
        {
            "name": "d",
            "available_tools": [],
            "test_cases": [
                {"id": "C", "input": "hi", "category": "happy_path", "tier": "critical"}
            ],
        }
    )
    run_id, _ = store.open_run("k", store.ensure_dataset(dataset), {})
    return run_id


def _result(run_id: int, *, error: str | None, dialogue: Dialogue | None) -> RunResult:
    return RunResult(
        run_id=run_id,
        variant="v",
        variant_hash="h",
        case_id="C",
        case_hash="c",
        output=dialogue.turns[-1].reply if dialogue else "one answer",
        error=error,
        dialogue=dialogue,
    )


def _dialogue(*replies: str, ended_by: str = "script") -> Dialogue:
    return Dialogue.model_validate(
        {
            "turns": [
                DialogueTurn(index=i + 1, user=f"u{i}", reply=r, steps=[i])
                for i, r in enumerate(replies)
            ],
            "ended_by": ended_by,
            "user_model": "fake:user",
            "simulator_calls": 2,
        }
    )


def test_a_dialogue_round_trips_and_a_retried_result_replaces_it(store: Store) -> None:
    run_id = _run(store)
    failed = _dialogue("asks", "", ended_by="agent_error")
    first = store.save_result(_result(run_id, error="timeout: no answer", dialogue=failed))
    assert store.result(first).dialogue == failed
    done = _dialogue("asks", "refunds", "bye")
    again = store.save_result(_result(run_id, error=None, dialogue=done))
    assert again == first  # replaced in place
    assert store.result(first).dialogue == done
    assert [r.dialogue for r in store.results(run_id)] == [done]
    finished = store.finished_result(run_id, ("h", "c", 0))
    assert finished is not None and finished.dialogue == done
    with store.session() as s:  # one dialogue row: the old one was deleted
        assert s.execute(text("select count(*) from dialogues")).scalar() == 1


def test_a_one_message_result_has_no_dialogue(store: Store) -> None:
    run_id = _run(store)
    stored = store.result(store.save_result(_result(run_id, error=None, dialogue=None)))
    assert stored.dialogue is None and "dialogue" not in stored.model_dump()


def test_a_database_from_before_dialogues_gains_the_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    Store(url).close()
    as_unversioned(tmp_path / "old.db", drop=("dialogues",))
    store = Store(url)
    run_id = _run(store)
    saved = store.save_result(_result(run_id, error=None, dialogue=_dialogue("hello")))
    assert store.result(saved).dialogue == _dialogue("hello")

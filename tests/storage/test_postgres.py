"""The whole pipeline on PostgreSQL (a throwaway local cluster), through a SQLAlchemy URL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arena.battles import judge_run
from arena.evaluation.run_scores import score_run
from arena.golden import GoldenDataset
from arena.leaderboard import build_leaderboard
from arena.models import ModelConfig, register_fake
from arena.ratings import RatingOptions
from arena.storage import Store
from judges import JudgeSpec
from tests.battles.test_judges import _prefers_300, _run
from tests.storage.test_dialogues import _dialogue, _result
from tests.support.postgres import postgres_cluster

pytestmark = pytest.mark.system


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for this module."""
    with postgres_cluster() as urls:
        yield urls["arena"]


def test_pipeline_on_postgres(postgres_url: str) -> None:
    store = Store(postgres_url)
    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judged = judge_run(
        store, run_id, JudgeSpec(model=ModelConfig(spec="fake:judge")), progress=False
    )
    assert judged.model_calls > 0
    scores = score_run(store, run_id)
    assert {v.variant for v in scores.variants} == {"good", "bad", "same"}
    board = build_leaderboard(store, run_id, options=RatingOptions(bootstrap_rounds=100))
    ranked = {e.variant: e for e in board.entries}
    assert ranked["good"].rating is not None and ranked["bad"].rating is not None
    assert ranked["good"].rating > ranked["bad"].rating
    again = Store(postgres_url)
    assert again.run(run_id).results == 12
    assert (
        judge_run(
            again, run_id, JudgeSpec(model=ModelConfig(spec="fake:judge")), progress=False
        ).model_calls
        == 0
    )
    result = again.results(run_id)[0]
    assert again.result(result.id or -1).output == result.output


def test_dialogues_on_postgres(postgres_url: str) -> None:
    """A scripted conversation's dialogue is stored and read back on PostgreSQL; a retried
    errored result replaces it."""
    store = Store(postgres_url)
    dataset = GoldenDataset.model_validate(
        {
            "name": "pg-dialogues",
            "available_tools": [],
            "test_cases": [{"id": "C", "input": "hi", "category": "happy_path"}],
        }
    )
    run_id, _ = store.open_run("pg-dialogues", store.ensure_dataset(dataset), {})
    failed = _dialogue("asks", "", ended_by="agent_error")
    first = store.save_result(_result(run_id, error="timeout", dialogue=failed))
    assert store.result(first).dialogue == failed
    done = _dialogue("asks", "refunds")
    assert store.save_result(_result(run_id, error=None, dialogue=done)) == first
    assert [r.dialogue for r in store.results(run_id)] == [done]

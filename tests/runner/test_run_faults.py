"""Agent runs against a faulty OpenAI-compatible server: unusable replies are errors, never
answers, never cached; an empty final answer is an error; a rerun sends exactly what is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda

from arena.agents import AgentContext
from arena.golden import GoldenDataset
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultServer]:
    monkeypatch.setenv("ARENA_RETRIES", "2")
    with FaultServer() as running:
        yield running


def _dataset(n: int = 3) -> GoldenDataset:
    cases = [
        {"id": f"F-{i}", "input": f"Question number {i}?", "category": "happy_path"}
        for i in range(n)
    ]
    return GoldenDataset.model_validate(
        {"name": "faults", "available_tools": ["calculate"], "test_cases": cases}
    )


def _variant(server: FaultServer) -> Variant:
    return Variant.model_validate(
        {
            "name": "remote",
            "tools": ["calculate"],
            "model": {"spec": "openai:remote-model", "base_url": server.base_url, "timeout": 2},
        }
    )


@pytest.mark.parametrize("kind", ["empty_content", "bad_json", "empty_choices"])
def test_malformed_200_replies_are_errors_and_a_rerun_asks_again(
    server: FaultServer, store: Store, kind: str
) -> None:
    server.configure(rate=1.0, kinds=[kind])
    first = run_suite(store, _dataset(), [_variant(server)], RunOptions(progress=False))
    for result in first.results:
        assert result.error is not None
        assert any(name in result.error for name in ("MalformedReplyError", "JSONDecodeError"))
    assert all(r.output == "" for r in first.results)
    assert server.stats()["requests"] == 3 * 2  # every case retried once (ARENA_RETRIES=2)
    server.configure(rate=0.0)
    server.reset()
    again = run_suite(
        store, _dataset(), [_variant(server)], RunOptions(progress=False, retry_errors=True)
    )
    assert [r.error for r in again.results] == [None] * 3
    assert all(r.output.startswith("remote-model answer: ") for r in again.results)
    assert server.stats()["requests"] == 3 and again.model_calls == 3
    final = run_suite(
        store, _dataset(), [_variant(server)], RunOptions(progress=False, retry_errors=True)
    )
    assert final.model_calls == 0 and server.stats()["requests"] == 3


def test_faults_at_half_rate_end_in_a_result_or_an_error(server: FaultServer, store: Store) -> None:
    server.configure(rate=0.5, kinds=["empty_content", "bad_json", "500", "truncated"], seed=7)
    report = run_suite(
        store, _dataset(8), [_variant(server)], RunOptions(progress=False, concurrency=4)
    )
    assert len(report.results) == 8
    for result in report.results:
        assert (result.error is None) == result.output.startswith("remote-model answer: ")
    server.configure(rate=0.0)
    errors = sum(1 for r in report.results if r.error)
    assert 0 < errors < 8
    server.reset()
    again = run_suite(
        store, _dataset(8), [_variant(server)], RunOptions(progress=False, retry_errors=True)
    )
    assert all(r.error is None for r in again.results)
    assert server.stats()["requests"] == errors  # exactly the missing calls


def empty_agent(ctx: AgentContext) -> Any:
    """A bring-your-own agent that finishes with an empty answer and no model call."""

    async def run(state: dict[str, Any]) -> dict[str, Any]:
        return {"messages": [*state["messages"], AIMessage("   ")]}

    return RunnableLambda(run)


def test_an_empty_final_answer_is_an_error(store: Store) -> None:
    variant = Variant.model_validate(
        {
            "name": "mute",
            "agent": "tests.runner.test_run_faults:empty_agent",
            "model": {"spec": "fake:echo"},
        }
    )
    (result,) = run_suite(store, _dataset(1), [variant], RunOptions(progress=False)).results
    assert result.error is not None and "empty answer" in result.error
    assert store.run(result.run_id or -1).errors == 1

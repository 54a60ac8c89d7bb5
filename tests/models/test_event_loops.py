"""A cached model kept between runs (an executor's, a judge's) works on every event loop: its
HTTP client is built again for each new loop (before, the next request on the kept client
failed with "Event loop is closed", as ``arena compare --sequential`` did on its second look)."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import HumanMessage

from arena.models import CachingChatModel, ModelConfig, make_chat_model
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.unit


@pytest.mark.system  # a server thread
def test_one_cached_model_answers_on_three_event_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOOP_KEY", "sk-loops")
    with FaultServer() as server:
        config = ModelConfig(
            spec="openai:loops", base_url=server.base_url, api_key_env="LOOP_KEY", timeout=5
        )
        model = CachingChatModel(
            factory=lambda: make_chat_model(config), identity="loops", namespace="repeat=0"
        )
        answers = [
            asyncio.run(model.ainvoke([HumanMessage(f"question {n}")])).content for n in range(3)
        ]
        assert server.stats()["requests"] == 3  # each loop asked the server (no cache hit)
    assert all(isinstance(a, str) and a.startswith("loops answer:") for a in answers), answers
    assert len(set(answers)) == 3


def test_a_model_on_one_loop_is_built_once() -> None:
    built: list[int] = []

    def factory():  # type: ignore[no-untyped-def]
        from arena.models._fake import FakeChatModel, register_fake

        register_fake("loops-once", ["one", "two"], cycle=True)
        built.append(1)
        return FakeChatModel(script="loops-once")

    model = CachingChatModel(factory=factory, identity="once")

    async def two_calls() -> None:
        await model.ainvoke([HumanMessage("a")])
        await model.ainvoke([HumanMessage("b")])

    asyncio.run(two_calls())
    assert built == [1]
    asyncio.run(model.ainvoke([HumanMessage("c")]))
    assert built == [1, 1]  # a new loop: built again

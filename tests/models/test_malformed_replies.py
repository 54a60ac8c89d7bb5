"""Unusable HTTP-200 replies are retried like 429/5xx, then raised, and never cached.

Against a real OpenAI-compatible server on 127.0.0.1 (tests/support/fault_server.py), through
the real ChatOpenAI client: bad JSON, truncated bodies, empty ``choices``, empty assistant
messages, replies without the requested logprobs. After the endpoint recovers, the same call
is sent again (nothing unusable was cached) and then replayed from the cache.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, message_to_dict

from arena.models import (
    CachingChatModel,
    MalformedReplyError,
    MemoryResponseStore,
    ModelConfig,
    RetryPolicy,
    cache_key,
    is_malformed_reply,
    make_chat_model,
    register_fake,
)
from arena.storage import Store
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system

ATTEMPTS = 3


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer(hang_s=5) as running:
        yield running


def _model(server: FaultServer, store: Any, **extra: Any) -> CachingChatModel:
    config = ModelConfig(
        spec="openai:judge-model",
        base_url=server.base_url,
        timeout=1,
        max_tokens=1 if extra else 64,
        extra=extra,
    )
    return CachingChatModel(
        factory=lambda: make_chat_model(config),
        identity=config.cache_identity(),
        namespace="t",
        store=store,
        retry=RetryPolicy(attempts=ATTEMPTS, base_delay=0),
    )


async def _recovers(server: FaultServer, store: Any, **extra: Any) -> AIMessage:
    """After the faults stop: one request, then a cache hit with no request."""
    server.configure(rate=0.0)
    server.reset()
    reply = await _model(server, store, **extra).ainvoke([HumanMessage("question")])
    again = await _model(server, store, **extra).ainvoke([HumanMessage("question")])
    assert server.stats()["requests"] == 1, "the unusable reply was cached or not retried"
    assert again.content == reply.content
    assert isinstance(reply, AIMessage)
    return reply


@pytest.mark.parametrize(
    "kind", ["bad_json", "truncated", "empty_choices", "empty_content", "500", "429", "hang"]
)
async def test_unusable_replies_are_retried_raised_and_never_cached(
    server: FaultServer, kind: str
) -> None:
    server.configure(rate=1.0, kinds=[kind])
    store = MemoryResponseStore()
    with pytest.raises(Exception) as caught:
        await _model(server, store).ainvoke([HumanMessage("question")])
    assert server.stats()["requests"] == ATTEMPTS == server.stats()[kind]
    assert store.data == {}
    if kind in ("bad_json", "empty_choices", "empty_content"):
        assert is_malformed_reply(caught.value)
    reply = await _recovers(server, store)
    assert str(reply.content).startswith("judge-model answer: ")
    assert len(store.data) == 1


async def test_replies_without_requested_logprobs_are_retried_and_never_cached(
    server: FaultServer, tmp_path: Any
) -> None:
    server.configure(rate=1.0, kinds=["no_logprobs"])
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    with pytest.raises(MalformedReplyError, match="no log-probabilities"):
        await _model(server, store, logprobs=True, top_logprobs=5).ainvoke(
            [HumanMessage("Assistant reply: strong\n\nYES or NO?")]
        )
    assert server.stats()["requests"] == ATTEMPTS
    server.configure(rate=0.0)
    server.reset()
    model = _model(server, store, logprobs=True, top_logprobs=5)
    reply = await model.ainvoke([HumanMessage("Assistant reply: strong\n\nYES or NO?")])
    assert reply.response_metadata["logprobs"]["content"][0]["top_logprobs"]
    assert server.stats()["requests"] == 1


async def test_logprobs_are_not_required_when_not_requested(server: FaultServer) -> None:
    server.configure(rate=1.0, kinds=["no_logprobs"])  # a plain reply when none are asked
    store = MemoryResponseStore()
    reply = await _model(server, store).ainvoke([HumanMessage("question")])
    assert reply.content and server.stats()["requests"] == 1 and len(store.data) == 1


async def test_forget_removes_a_reply_the_caller_rejected(
    server: FaultServer, tmp_path: Any
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    model = _model(server, store)
    reply = await model.ainvoke([HumanMessage("question")])
    cached = await _model(server, store).ainvoke([HumanMessage("question")])
    assert server.stats()["requests"] == 1
    _model(server, store).forget(cached)  # e.g. a judge whose parser rejected the reply
    again = await _model(server, store).ainvoke([HumanMessage("question")])
    assert server.stats()["requests"] == 2 and again.content == reply.content
    model.forget(AIMessage("not from the cache"))  # ignored
    assert store.get(again.response_metadata["arena_cache_key"]) is not None


def test_sync_calls_follow_the_same_rules(server: FaultServer) -> None:
    server.configure(rate=1.0, kinds=["empty_choices"])
    store = MemoryResponseStore()
    with pytest.raises(MalformedReplyError, match="no choices"):
        _model(server, store).invoke([HumanMessage("question")])
    assert server.stats()["requests"] == ATTEMPTS and store.data == {}


async def test_empty_scripted_replies_are_retried_then_an_error() -> None:
    script = register_fake("empty-then-ok", [AIMessage(""), "  ", "fine"])
    store = MemoryResponseStore()
    model = CachingChatModel(
        inner=make_chat_model(ModelConfig(spec="fake:empty-then-ok")),
        identity="e",
        store=store,
        retry=RetryPolicy(attempts=3, base_delay=0),
    )
    assert (await model.ainvoke([HumanMessage("q")])).content == "fine"
    assert len(script.calls) == 3 and len(store.data) == 1
    register_fake("always-empty", [""], cycle=True)
    with pytest.raises(MalformedReplyError, match="empty assistant message"):
        await CachingChatModel(
            inner=make_chat_model(ModelConfig(spec="fake:always-empty")),
            identity="x",
            retry=RetryPolicy(attempts=2, base_delay=0),
        ).ainvoke([HumanMessage("q")])


async def test_a_previously_cached_empty_reply_is_asked_again() -> None:
    register_fake("was-empty", ["now an answer"])
    store = MemoryResponseStore()
    model = CachingChatModel(
        inner=make_chat_model(ModelConfig(spec="fake:was-empty")), identity="w", store=store
    )
    key = cache_key("w", "", [HumanMessage("q")], {"stop": None})
    store.put(key, "w", {"message": message_to_dict(AIMessage("")), "latency_s": 0.1})
    assert (await model.ainvoke([HumanMessage("q")])).content == "now an answer"
    assert store.data[key]["message"]["data"]["content"] == "now an answer"

"""LeanChatOpenAI: messages and tools skip the openai SDK's type walk, the request is unchanged.

The bodies are compared on a real OpenAI-compatible server on 127.0.0.1 (the fault server's
request log holds the sha256 of every body it received).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_openai import ChatOpenAI

from arena.agents.research.tools import build_tools
from arena.models import ModelConfig
from arena.models._lean_openai import LeanChatOpenAI, lean_payload
from arena.models.providers._openai import http_clients
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system

CONVERSATION = [
    SystemMessage("You are a research assistant."),
    HumanMessage("What is 6 * 7, and what does the web say about it? ünïcode"),
    AIMessage(
        "",
        tool_calls=[
            {
                "name": "calculate",
                "args": {"expression": "6 * 7"},
                "id": "call_1",
                "type": "tool_call",
            }
        ],
    ),
    ToolMessage("42", tool_call_id="call_1"),
]


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def _client(cls: type[ChatOpenAI], server: FaultServer, **extra: Any) -> ChatOpenAI:
    config = ModelConfig(spec="openai:lean", base_url=server.base_url)
    return cls(
        model="lean",
        base_url=server.base_url,
        api_key="unused",
        max_retries=0,
        temperature=0.0,
        max_tokens=64,
        **http_clients(config),
        **extra,
    )


def _bodies(server: FaultServer, *models: Any) -> list[str]:
    server.reset()

    async def send() -> None:
        for model in models:
            await model.ainvoke(CONVERSATION)

    asyncio.run(send())
    for model in models:  # the sync client sends the same body too
        model.invoke(CONVERSATION)
    return [digest for digest, _, _ in server.log()]


def test_lean_requests_are_byte_identical(server: FaultServer) -> None:
    tools = build_tools(model=None, sandbox=None)
    plain = _client(ChatOpenAI, server).bind_tools(tools)
    lean = _client(LeanChatOpenAI, server).bind_tools(tools)
    async_plain, async_lean, sync_plain, sync_lean = _bodies(server, plain, lean)
    assert async_plain == async_lean == sync_plain == sync_lean


def test_lean_requests_without_tools_and_with_extra_body(server: FaultServer) -> None:
    extra = {
        "extra_body": {
            "seed_note": "kept",
            "messages": [{"role": "user", "content": "the caller's own"}],
        }
    }
    digests = _bodies(
        server, _client(ChatOpenAI, server, **extra), _client(LeanChatOpenAI, server, **extra)
    )
    assert digests[0] == digests[1] and digests[2] == digests[3]


@pytest.mark.unit
def test_lean_payload_moves_messages_and_tools_keeping_key_order() -> None:
    payload = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"a": 1}],
        "temperature": 0.0,
        "extra_body": {"tools": "mine"},
    }
    lean = lean_payload(payload)
    assert list(lean) == list(payload)
    assert lean["messages"] == lean["tools"] == []
    assert lean["extra_body"] == {"messages": payload["messages"], "tools": "mine"}
    merged = {**{k: v for k, v in lean.items() if k != "extra_body"}, **lean["extra_body"]}
    assert json.dumps(merged) == json.dumps(
        {"model": "m", "messages": payload["messages"], "tools": "mine", "temperature": 0.0}
    )
    assert lean_payload({"model": "m", "input": "x"}) == {"model": "m", "input": "x"}


@pytest.mark.unit
def test_structured_output_and_responses_payloads_are_left_alone() -> None:
    model = LeanChatOpenAI(model="m", api_key="unused", base_url="http://127.0.0.1:9/v1")
    kept = model._get_request_payload([HumanMessage("hi")], response_format={"type": "json"})
    assert kept["messages"] and "extra_body" not in kept
    responses = LeanChatOpenAI(
        model="m", api_key="unused", base_url="http://127.0.0.1:9/v1", use_responses_api=True
    )
    payload = responses._get_request_payload([HumanMessage("hi")])
    assert "input" in payload and "extra_body" not in payload
    streamed = model._get_request_payload([HumanMessage("hi")], stream=True)
    assert streamed["messages"] and "extra_body" not in streamed
    lean = model._get_request_payload([HumanMessage("hi")])
    assert lean["messages"] == [] and lean["extra_body"]["messages"][0]["content"] == "hi"


def test_lean_results_match_chatopenai_and_are_built_on_the_event_loop(
    server: FaultServer,
) -> None:
    built_on: list[int] = []

    class Recording(LeanChatOpenAI):
        def _create_chat_result(self, *args: Any, **kwargs: Any) -> Any:
            built_on.append(threading.get_ident())
            return super()._create_chat_result(*args, **kwargs)

    tools = build_tools(model=None, sandbox=None)

    async def both() -> tuple[int, Any, Any]:
        plain = await _client(ChatOpenAI, server).bind_tools(tools).ainvoke(CONVERSATION)
        lean = await _client(Recording, server).bind_tools(tools).ainvoke(CONVERSATION)
        return threading.get_ident(), plain, lean

    loop_thread, plain, lean = asyncio.run(both())
    assert built_on == [loop_thread]  # no hop to a worker thread and back
    assert lean.content == plain.content and lean.tool_calls == plain.tool_calls
    assert lean.usage_metadata == plain.usage_metadata
    assert lean.response_metadata == plain.response_metadata


@pytest.mark.parametrize("kind", ["500", "429"])
def test_lean_errors_are_chatopenais(server: FaultServer, kind: str) -> None:
    server.configure(rate=1.0, kinds=[kind])
    try:
        errors = []
        for cls in (ChatOpenAI, LeanChatOpenAI):
            with pytest.raises(Exception) as caught:
                asyncio.run(_client(cls, server).ainvoke(CONVERSATION))
            errors.append(caught.value)
    finally:
        server.configure(rate=0.0)
    plain, lean = errors
    assert type(lean) is type(plain) and str(lean) == str(plain)
    assert getattr(lean, "status_code", None) == getattr(plain, "status_code", None)

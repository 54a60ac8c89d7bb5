"""Model factory, JSON tool-call parsing, response cache and retries (offline)."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from arena.errors import ModelError
from arena.models import (
    CALLS,
    CachingChatModel,
    CallCounter,
    FakeChatModel,
    MemoryResponseStore,
    ModelConfig,
    RetryPolicy,
    TransientModelError,
    cache_key,
    is_transient,
    make_chat_model,
    price_for,
    register_fake,
)
from arena.models._json_calls import parse_json_tool_calls

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("content", "names"),
    [
        ('{"name": "calculate", "arguments": {"expression": "1+1"}}', ["calculate"]),
        ('```json\n{"name": "search_web", "arguments": {"query": "x"}}\n```', ["search_web"]),
        ('{"name": "calculate", "arguments": "{\\"expression\\": \\"2\\"}"}', ["calculate"]),
        ('{"name": "calculate", "parameters": {"expression": "3"}}', ["calculate"]),
        ('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]', ["a", "b"]),
        ('  {"name": "calculate", "arguments": {"expression": "1"}} trailing', ["calculate"]),
        ("The answer is 300.", []),
        ('Use this JSON: {"name": "send_email", "arguments": {}}', []),
        ('{"answer": 300}', []),
        ('{"name": "x", "arguments": [1, 2]}', []),
        ("{not json", []),
        ("", []),
    ],
)
def test_parse_json_tool_calls(content: str, names: list[str]) -> None:
    calls = parse_json_tool_calls(content)
    assert [c["name"] for c in calls] == names
    assert all(isinstance(c["args"], dict) for c in calls)


def test_json_tool_call_ids_are_stable_and_salted() -> None:
    text = '{"name": "calculate", "arguments": {"expression": "1+1"}}'
    assert parse_json_tool_calls(text, "3")[0]["id"] == parse_json_tool_calls(text, "3")[0]["id"]
    assert parse_json_tool_calls(text, "3")[0]["id"] != parse_json_tool_calls(text, "5")[0]["id"]


@pytest.mark.parametrize("spec", ["gpt-4o", "local", "azure:gpt", "openai:", ":x"])
def test_model_config_rejects_bad_specs(spec: str) -> None:
    with pytest.raises(ValueError, match="PROVIDER:NAME"):
        ModelConfig(spec=spec)


def test_cache_identity_ignores_keys_and_timeout_but_not_sampling() -> None:
    a = ModelConfig(spec="openai:gpt-4o-mini", api_key_env="A", timeout=10)
    b = ModelConfig(spec="openai:gpt-4o-mini", api_key_env="B", timeout=99)
    c = ModelConfig(spec="openai:gpt-4o-mini", temperature=0.7)
    assert a.cache_identity() == b.cache_identity() != c.cache_identity()


def test_factory_builds_fake_and_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    register_fake("hello", ["hi"])
    assert isinstance(make_chat_model(ModelConfig(spec="fake:hello")), FakeChatModel)
    monkeypatch.setenv("MY_KEY", "sk-test")
    model = make_chat_model(
        ModelConfig(
            spec="openai:gpt-4o-mini", api_key_env="MY_KEY", base_url="http://127.0.0.1:9/v1"
        )
    )
    assert type(model).__name__ == "LeanChatOpenAI"  # ChatOpenAI minus the SDK's transform
    assert "sk-test" not in repr(model)


def test_factory_errors_are_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOPE_KEY", raising=False)
    with pytest.raises(ModelError, match="NOPE_KEY is not set"):
        make_chat_model(ModelConfig(spec="openai:gpt-4o", api_key_env="NOPE_KEY"))
    with pytest.raises(ModelError, match="no fake script"):
        make_chat_model(ModelConfig(spec="fake:missing-script"))
    with pytest.raises(ModelError, match="unknown local model"):
        make_chat_model(ModelConfig(spec="local:llama-9000"))


def test_prices_from_table_and_variant_override() -> None:
    table = price_for(ModelConfig(spec="openai:gpt-4o-mini"))
    assert table.input == pytest.approx(0.15) and table.output == pytest.approx(0.60)
    assert table.cost(1_000_000, 1_000_000) == pytest.approx(0.75)
    own = price_for(ModelConfig(spec="openai:gpt-4o-mini", price_output_per_mtok=2.0))
    assert own.output == 2.0 and own.input == pytest.approx(0.15)
    assert price_for(ModelConfig(spec="local:qwen2.5-coder-1.5b")).cost(10**6, 10**6) == 0


def test_fake_model_plays_script_and_tool_calls() -> None:
    register_fake("script", [{"tool": "calculate", "args": {"expression": "2+2"}}, "four"])
    model = make_chat_model(ModelConfig(spec="fake:script"))
    first = model.invoke([HumanMessage("2+2?")])
    assert isinstance(first, AIMessage) and first.tool_calls[0]["name"] == "calculate"
    second = model.invoke([HumanMessage("2+2?")])
    assert second.content == "four" and second.usage_metadata["output_tokens"] == 1
    with pytest.raises(ModelError, match="exhausted"):
        model.invoke([HumanMessage("again")])


def _cached(script: str, store: MemoryResponseStore, namespace: str = "") -> CachingChatModel:
    return CachingChatModel(
        inner=make_chat_model(ModelConfig(spec=f"fake:{script}")),
        identity=script,
        namespace=namespace,
        store=store,
        retry=RetryPolicy(attempts=3, base_delay=0),
    )


async def test_cache_hit_makes_no_call_and_counts() -> None:
    script = register_fake("cache1", ["answer one"])
    store = MemoryResponseStore()
    counter = CallCounter()
    token = CALLS.set(counter)
    try:
        first = await _cached("cache1", store).ainvoke([HumanMessage("q")])
        again = await _cached("cache1", store).ainvoke([HumanMessage("q")])
    finally:
        CALLS.reset(token)
    assert first.content == again.content == "answer one"
    assert len(script.calls) == 1
    assert (counter.sent, counter.cached) == (1, 1)


async def test_cache_key_separates_namespace_tools_and_messages() -> None:
    base = cache_key("m", "repeat=0", [HumanMessage("q")], {})
    assert base != cache_key("m", "repeat=1", [HumanMessage("q")], {})
    assert base != cache_key("m", "repeat=0", [HumanMessage("q2")], {})
    assert base != cache_key("m", "repeat=0", [HumanMessage("q")], {"tools": [{"a": 1}]})
    # Message ids and metadata never enter the key.
    assert base == cache_key("m", "repeat=0", [HumanMessage("q", id="xyz")], {})
    with_tool = [
        AIMessage("", tool_calls=[{"name": "t", "args": {}, "id": "1"}]),
        ToolMessage("obs", tool_call_id="1"),
    ]
    assert cache_key("m", "", with_tool, {}) != cache_key("m", "", with_tool[:1], {})


async def test_transient_errors_are_retried_then_succeed() -> None:
    script = register_fake("flaky", [TransientModelError("503"), ConnectionError("reset"), "ok"])
    reply = await _cached("flaky", MemoryResponseStore()).ainvoke([HumanMessage("q")])
    assert reply.content == "ok" and len(script.calls) == 3


async def test_retries_give_up_and_raise() -> None:
    register_fake("down", [TransientModelError("503")], cycle=True)
    with pytest.raises(TransientModelError):
        await _cached("down", MemoryResponseStore()).ainvoke([HumanMessage("q")])


async def test_permanent_errors_are_not_retried() -> None:
    script = register_fake("bad", [ValueError("400 bad request"), "never"])
    with pytest.raises(ValueError):
        await _cached("bad", MemoryResponseStore()).ainvoke([HumanMessage("q")])
    assert len(script.calls) == 1


class _Status(Exception):
    def __init__(self, status_code: int) -> None:
        super().__init__(f"status {status_code}")
        self.status_code = status_code


@pytest.mark.parametrize(
    ("exc", "transient"),
    [
        (_Status(429), True),
        (_Status(500), True),
        (_Status(503), True),
        (_Status(400), False),
        (_Status(404), False),
        (TimeoutError(), True),
        (ConnectionError(), True),
        (ValueError("x"), False),
    ],
)
def test_is_transient(exc: Exception, transient: bool) -> None:
    assert is_transient(exc) is transient


def test_transient_detected_through_exception_chain() -> None:
    try:
        try:
            raise _Status(502)
        except _Status as inner:
            raise RuntimeError("wrapped") from inner
    except RuntimeError as outer:
        assert is_transient(outer)


def test_backoff_grows_and_is_capped() -> None:
    policy = RetryPolicy(base_delay=1.0, factor=2.0, max_delay=5.0)
    assert 0.5 <= policy.delay(0) <= 1.0
    assert 2.0 <= policy.delay(2) <= 4.0
    assert policy.delay(10) <= 5.0

"""OpenTelemetry traces (OTLP JSON, as the Collector's file exporter writes it) read as
production traces: the GenAI semantic conventions and OpenInference, tool spans, nested and
out-of-order spans, several traces, folders and pipes, and hostile span files refused naming
the file, the line and the field.

The fixtures ``data/otel_genai.jsonl`` and ``data/otel_openinference.json`` are hand-written
in the real formats; each attribute name comes from the conventions named in
:mod:`arena.production._otlp_conventions` (GenAI: open-telemetry/semantic-conventions
``docs/gen-ai/gen-ai-spans.md`` and ``non-normative/examples-llm-calls.md``; OpenInference:
Arize-ai/openinference ``spec/semantic_conventions.md`` and ``spec/tool_calling.md``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from arena.errors import InputError
from arena.models import model_price
from arena.production import SampleSpec, read_traces, sampled_traces, trace_format
from tests.production.helpers import DATA
from tests.production.otlp import START, agent_trace, attr, document, span, write_lines
from tests.production.test_pipes import piped

pytestmark = pytest.mark.unit

GENAI = DATA / "otel_genai.jsonl"
OPENINFERENCE = DATA / "otel_openinference.json"


def test_genai_spans_rebuild_each_root_trace() -> None:
    assert trace_format(GENAI) == "otlp"
    agent, old = read_traces(GENAI)  # in the order of their roots' start
    assert agent.trace_id == "4bf92f3577b34da6a3ce929d0e0e4736"  # the root came last
    assert agent.query == "Can I get a refund after 20 days?"
    assert agent.answer == "Yes: refunds are accepted within 30 days of purchase."
    (tool,) = agent.tools  # the execute_tool span
    assert (tool.name, tool.arguments) == ("search_docs", {"query": "refund window"})
    assert tool.result == "Refunds are accepted within 30 days of purchase."
    assert agent.latency_s == 2.5  # the root's duration
    assert (agent.input_tokens, agent.output_tokens) == (412 + 480, 18 + 20)  # chat spans only
    assert agent.cost == pytest.approx((892 * 0.15 + 38 * 0.60) / 1e6)  # openai:gpt-4o-mini
    assert agent.timestamp == datetime(2025, 12, 1, 10, 12, 3, tzinfo=UTC)
    assert agent.stratum("service.name") == "support-bot"
    assert agent.stratum("gen_ai.agent.name") == "support-bot"
    # the older conventions: prompt/completion events, gen_ai.system, prompt_tokens
    assert (old.query, old.answer) == (
        "Do you ship to Norway?",
        "Yes, we ship to Norway in 5 to 7 days.",
    )
    assert (old.input_tokens, old.output_tokens, old.tools) == (30, 12, [])
    assert old.cost == pytest.approx((30 * 2.5 + 12 * 10.0) / 1e6)  # openai:gpt-4o


def test_openinference_spans_in_one_pretty_printed_document() -> None:
    assert OPENINFERENCE.read_text().startswith("{\n")  # one object, not a line each
    chain, agent = read_traces(OPENINFERENCE)
    assert chain.query == "What is the capital of Australia?"  # input.value's messages
    assert chain.answer == "Canberra is the capital of Australia."  # output.value's last AI
    (tool,) = chain.tools  # the TOOL span: tool.name, input.value, output.value
    assert (tool.name, tool.arguments, tool.result) == (
        "lookup_capital",
        {"country": "Australia"},
        "Canberra",
    )
    assert (chain.input_tokens, chain.output_tokens, chain.total_tokens) == (225, 23, 248)
    assert chain.stratum("intent") == "geography" and chain.stratum("session.id") == "sess-9"
    assert agent.query == "Where is my order 1042?"  # text/plain input.value
    (failed,) = agent.tools  # nested under the LLM span; its arguments in tool.parameters
    assert failed.arguments == {"order_id": "1042"}
    assert failed.error == "TimeoutError: orders API timed out"
    assert agent.cost is None  # claude-house-finetune has no price: unknown, never 0
    assert (agent.input_tokens, agent.output_tokens) == (50, 7)


def test_model_price_names_a_model_as_tracers_do() -> None:
    assert model_price("gpt-4o-mini", "openai") == model_price("openai:gpt-4o-mini")
    assert model_price("claude-3-5-haiku-latest", "anthropic") is not None
    assert model_price("claude-house-finetune", "anthropic") is None


def _oi_llm(trace: int, number: int, parent: int, messages: dict[str, Any], **at: float) -> dict:
    return span(trace, number, parent, {"openinference.span.kind": "LLM", **messages}, **at)


CALL = "llm.output_messages.0.message.tool_calls.0.tool_call"


def test_tool_calls_from_the_model_s_messages_when_no_tool_span(tmp_path: Path) -> None:
    root = span(7, 1, None, {"openinference.span.kind": "AGENT"}, start=0, end=3)
    ask = _oi_llm(7, 2, 1, {
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "Weather in Paris?",
        "llm.output_messages.0.message.role": "assistant",
        f"{CALL}.id": "c1",
        f"{CALL}.function.name": "get_weather",
        f"{CALL}.function.arguments": '{"city": "Paris"}',
    }, start=0.1, end=1)  # fmt: skip
    answer = _oi_llm(7, 3, 1, {
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "Weather in Paris?",
        "llm.input_messages.1.message.role": "tool",
        "llm.input_messages.1.message.content": "rainy, 57F",
        "llm.input_messages.1.message.tool_call_id": "c1",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.contents.0.message_content.type": "text",
        "llm.output_messages.0.message.contents.0.message_content.text": "Rainy, 57F.",
    }, start=1.5, end=2.5)  # fmt: skip
    path = write_lines(tmp_path / "spans.jsonl", [document([answer, root, ask])])
    (trace,) = read_traces(path)
    assert (trace.query, trace.answer) == ("Weather in Paris?", "Rainy, 57F.")  # from the LLMs
    (tool,) = trace.tools
    assert (tool.name, tool.arguments, tool.result) == (
        "get_weather",
        {"city": "Paris"},
        "rainy, 57F",
    )
    assert trace.cost is None and trace.input_tokens is None  # nothing recorded: unknown


def test_nested_spans_and_many_traces_in_any_order(tmp_path: Path) -> None:
    deep = [
        span(3, 4, 3, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "grep",
                       "gen_ai.tool.call.arguments": '{"pattern": "x"}'}, start=0.4, end=0.5),
        span(3, 3, 2, {"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 5,
                       "gen_ai.usage.output_tokens": 1, "gen_ai.request.model": "gpt-4o"}),
        span(3, 2, 1, {"gen_ai.operation.name": "invoke_agent"}, start=0.1, end=0.9),
        span(3, 1, None, {"input.value": "find x", "output.value": "x is on line 3"}, end=1.25),
    ]  # fmt: skip
    documents = [document(deep[:2]), document(agent_trace(9, "second?", "B", start=50))]
    documents += [document(agent_trace(8, "first?", "A", start=10)), document(deep[2:])]
    traces = read_traces(write_lines(tmp_path / "spans.json", documents))  # .json, a line each
    assert [t.query for t in traces] == ["find x", "first?", "second?"]  # by the roots' start
    first = traces[0]
    assert first.answer == "x is on line 3" and first.latency_s == 1.25
    assert [(t.name, t.arguments) for t in first.tools] == [("grep", {"pattern": "x"})]
    assert first.cost == pytest.approx((5 * 2.5 + 1 * 10.0) / 1e6)


def test_a_root_called_by_another_service_is_the_root(tmp_path: Path) -> None:
    spans = agent_trace(4, "q?", "a")
    spans[1]["parentSpanId"] = "00000000000000ab"  # the gateway's span, not exported
    (trace,) = read_traces(write_lines(tmp_path / "t.jsonl", [document(spans)]))
    assert trace.answer == "a"


def test_a_folder_of_rotated_files_pools_their_spans(tmp_path: Path) -> None:
    folder = tmp_path / "otel"
    folder.mkdir()
    chat, root = agent_trace(5, "split?", "across files")
    write_lines(folder / "traces-1.json", [document([chat])])
    write_lines(folder / "traces-2.json", [document([root])])
    (folder / ".lock").write_text("not read")
    assert trace_format(folder) == "otlp"
    (trace,) = read_traces(folder)
    assert (trace.query, trace.answer) == ("split?", "across files")
    (folder / "notes.jsonl").write_text('{"trace_id": "t1", "query": "q", "answer": "a"}\n')
    with pytest.raises(InputError, match=r"notes\.jsonl: expected OTLP JSON .* holds traces"):
        read_traces(folder)


def test_otlp_lines_through_a_pipe_are_read_once(tmp_path: Path) -> None:
    documents = [document(agent_trace(n, f"question {n}?", f"answer {n}")) for n in range(1, 41)]
    source = Path(write_lines(tmp_path / "spans.jsonl", documents))
    with piped(source) as pipe:
        sample, _ = sampled_traces(pipe, SampleSpec())
    assert sample.read == 40


def _hostile(spans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [document(agent_trace(1, "fine?", "fine")), document(spans)]


def _with(change: dict[str, Any], number: int = 2) -> list[dict[str, Any]]:
    spans = agent_trace(2, "q?", "a")
    target = spans[0] if number == 2 else spans[1]
    target.update(change)
    return spans


def _attrs(*pairs: dict[str, Any], drop: str = "") -> dict[str, Any]:
    chat = agent_trace(2, "q?", "a")[0]
    kept = [a for a in chat["attributes"] if a["key"] != drop]
    return {"attributes": [*kept, *pairs]}


SPANS = "resourceSpans[0].scopeSpans[0].spans"
HOSTILE: dict[str, tuple[list[Any], list[str]]] = {
    "base64 trace id": (
        _with({"traceId": "S/kvNXezTaajzpKdDg5HNg=="}),
        [f"field {SPANS}[0].traceId", "expected 32 hex digits"],
    ),
    "all-zero span id": (_with({"spanId": "0" * 16}), [f"{SPANS}[0].spanId", "not all zero"]),
    "NaN double": (
        _with(_attrs({"key": "llm.cost.total", "value": {"doubleValue": "NaN"}})),
        ["attributes[llm.cost.total].doubleValue", "'NaN' is not a finite number"],
    ),
    "Infinity double": (
        _with(_attrs({"key": "gen_ai.request.temperature", "value": {"doubleValue": "-Infinity"}})),
        ["attributes[gen_ai.request.temperature].doubleValue", "not a finite number"],
    ),
    "bad intValue": (
        _with(_attrs({"key": "x.count", "value": {"intValue": "12abc"}})),
        ["attributes[x.count].intValue", "not a 64-bit integer"],
    ),
    "int beyond 64 bits": (
        _with(_attrs({"key": "x.count", "value": {"intValue": "99999999999999999999"}})),
        ["attributes[x.count].intValue", "not a 64-bit integer"],
    ),
    "negative tokens": (
        _with(_attrs(attr("gen_ai.usage.prompt_tokens", -5), drop="gen_ai.usage.input_tokens")),
        ["attributes[gen_ai.usage.prompt_tokens]", "token count"],
    ),
    "attribute twice": (
        _with(_attrs(attr("gen_ai.request.model", "gpt-4o"))),
        ["attributes[gen_ai.request.model]", "attribute given twice"],
    ),
    "ends before it starts": (
        _with({"endTimeUnixNano": str(START - 1)}),
        [f"{SPANS}[0].endTimeUnixNano", "ends before it starts"],
    ),
    "time not a number": (
        _with({"startTimeUnixNano": "yesterday"}),
        [f"{SPANS}[0].startTimeUnixNano", "nanoseconds"],
    ),
    "span id twice": (
        [*agent_trace(2, "q?", "a"), agent_trace(2, "q?", "a")[0]],
        [f"{SPANS}[2].spanId", "is given twice (first at"],
    ),
    "two roots": (
        [*agent_trace(2, "q?", "a"), span(2, 9, None, {"input.value": "other"}, start=3, end=4)],
        ["2 spans without a parent", "one root is needed"],
    ),
    "no query": (
        [span(2, 1, None, {"output.value": "an answer"})],
        ["attributes[input.value]", "no query"],
    ),
    "a span not an object": (
        [agent_trace(2, "q?", "a")[0], "not a span"],
        [f"{SPANS}[1]", "expected a JSON object"],
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_span_is_refused_naming_file_line_and_field(tmp_path: Path, name: str) -> None:
    spans, says = HOSTILE[name]
    path = write_lines(tmp_path / "spans.json", _hostile(spans))
    with pytest.raises(InputError) as raised:
        read_traces(path)
    text = str(raised.value)
    assert text.startswith(f"file {path}, line 2")
    for part in says:
        assert part in text


def test_hostile_documents_and_bounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nan = tmp_path / "nan.json"
    nan.write_text('{"resourceSpans": []}\n{"resourceSpans": [], "x": NaN}\n')
    with pytest.raises(InputError, match=r"nan\.json, line 2, field x: NaN is not a JSON number"):
        read_traces(nan)
    deep: Any = {"stringValue": "leaf"}
    for _ in range(40):
        deep = {"kvlistValue": {"values": [{"key": "k", "value": deep}]}}
    spans = _with(_attrs({"key": "metadata", "value": deep}))
    path = write_lines(tmp_path / "deep.json", _hostile(spans))
    with pytest.raises(InputError, match=r"deep\.json, line 2: JSON nested too deeply"):
        read_traces(path)
    other = write_lines(tmp_path / "mixed.jsonl", [document(agent_trace(1, "q", "a")), {"a": 1}])
    with pytest.raises(InputError, match=r"line 2, field resourceSpans: expected OTLP JSON"):
        read_traces(other)
    monkeypatch.setattr("arena.production._otlp.MAX_SPANS", 3)
    many = write_lines(tmp_path / "many.json", _hostile(agent_trace(2, "q", "a")))
    with pytest.raises(InputError, match=r"many\.json, line 2: more than 3 spans"):
        read_traces(many)


def test_a_pretty_printed_document_that_is_not_otlp_is_named(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"spans": []}, indent=2))
    with pytest.raises(InputError, match=r"other\.json, field resourceSpans: expected OTLP JSON"):
        read_traces(path)

"""What a span says, read by the conventions LLM tracers write.

- The OpenTelemetry GenAI semantic conventions (``open-telemetry/semantic-conventions``,
  ``docs/gen-ai/gen-ai-spans.md``, ``gen-ai-events.md``, ``gen-ai-agent-spans.md``):
  ``gen_ai.operation.name`` (``chat``, ``text_completion``, ``generate_content``,
  ``invoke_agent``, ``execute_tool``), ``gen_ai.request.model`` / ``gen_ai.response.model``,
  ``gen_ai.provider.name`` (formerly ``gen_ai.system``), ``gen_ai.usage.input_tokens`` /
  ``output_tokens`` (formerly ``prompt_tokens`` / ``completion_tokens``),
  ``gen_ai.input.messages`` / ``gen_ai.output.messages`` (messages of ``parts``: ``text``,
  ``tool_call``, ``tool_call_response``; on the span, or on a
  ``gen_ai.client.inference.operation.details`` event), the older ``gen_ai.content.prompt`` /
  ``gen_ai.content.completion`` events (``gen_ai.prompt`` / ``gen_ai.completion``), and
  ``execute_tool`` spans (``gen_ai.tool.name``, ``gen_ai.tool.call.id``,
  ``gen_ai.tool.call.arguments``, ``gen_ai.tool.call.result``);
- OpenLLMetry's indexed ``gen_ai.prompt.N.role`` / ``.content`` and ``gen_ai.completion.N.*``;
- OpenInference (``Arize-ai/openinference``, ``spec/semantic_conventions.md``,
  ``spec/tool_calling.md``), as Phoenix writes it: ``openinference.span.kind`` (``LLM``,
  ``TOOL``, ``AGENT``, ``CHAIN``, ...), ``input.value`` / ``output.value`` (with
  ``input.mime_type``), ``llm.input_messages.N.message.role`` / ``.content`` /
  ``.contents.K.message_content.text`` / ``.tool_calls.K.tool_call.function.name`` /
  ``.arguments`` / ``.tool_call_id``, ``llm.output_messages.N.*``, ``llm.model_name``,
  ``llm.provider``, ``llm.token_count.prompt`` / ``completion`` / ``total``,
  ``llm.cost.total``, ``tool.name``, ``tool.parameters``, ``metadata``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from arena.errors import InputError
from arena.inputs.files import parse_json
from arena.production._langsmith_runs import _AI, _USER, OUTPUT_KEYS, QUERY_KEYS, _text
from arena.production._otlp_spans import Span

#: ``gen_ai.operation.name`` values of a model call (tokens and cost are summed over them).
INFERENCE_OPERATIONS = ("chat", "text_completion", "generate_content")
#: The most messages (or tool calls of one message) read from indexed attributes.
MAX_INDEX = 10_000
_INDEXED = re.compile(r"(\d{1,5})\.(.+)")


@dataclass
class Call:
    """A tool call a model asked for (its id, name and arguments)."""

    name: str
    arguments: dict[str, Any]
    id: str | None = None


@dataclass
class Msg:
    """One chat message: its role, text, the tool calls it asks for and the tool results it
    carries (tool call id -> content)."""

    role: str
    text: str = ""
    calls: list[Call] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)


def kind(span: Span) -> str:
    """``llm`` (a model call), ``tool`` (a tool's execution), ``agent`` or ``other``."""
    oi = str(span.attrs.get("openinference.span.kind", "")).upper()
    op = span.attrs.get("gen_ai.operation.name")
    if oi == "LLM" or op in INFERENCE_OPERATIONS:
        return "llm"
    if oi == "TOOL" or op == "execute_tool":
        return "tool"
    if oi == "AGENT" or op in ("invoke_agent", "create_agent"):
        return "agent"
    if not oi and op is None and any(k.startswith("gen_ai.usage.") for k in span.attrs):
        return "llm"  # an older GenAI span without an operation name
    return "other"


def _json(span: Span, key: str, value: Any, *, strict: bool) -> Any:
    """A JSON-string attribute parsed (the safe parser: depth, duplicates, NaN); a bad one
    is refused when ``strict`` (the convention says it is JSON), else kept as text."""
    if not isinstance(value, str):
        return value
    try:
        return parse_json(value)
    except InputError as exc:
        if strict:
            raise span.fail(f"not JSON: {exc.message}", key) from None
        return value


def _args(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    if value is None or value == "":
        return {}
    return {"input": value}


def _parts_message(span: Span, key: str, item: Any) -> Msg | None:
    """A GenAI message: ``{"role", "parts": [...]}``, or the older ``{"role", "content"}``."""
    if not isinstance(item, dict) or not isinstance(item.get("role"), str):
        return None
    msg = Msg(role=item["role"])
    content = item.get("content")
    if isinstance(content, str):
        msg.text = content
    texts = []
    for part in item.get("parts") or []:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text" and isinstance(part.get("content"), str):
            texts.append(part["content"])
        elif part.get("type") == "tool_call" and isinstance(part.get("name"), str):
            arguments = _json(span, key, part.get("arguments"), strict=False)
            msg.calls.append(Call(part["name"], _args(arguments), _id(part.get("id"))))
        elif part.get("type") == "tool_call_response":
            msg.results[str(part.get("id"))] = part.get("response")
    if texts:
        msg.text = "".join(texts)
    for call in item.get("tool_calls") or []:  # the older {"role", "tool_calls"} shape
        if isinstance(call, dict) and isinstance(call.get("function"), dict):
            fn = call["function"]
            if isinstance(fn.get("name"), str):
                arguments = _json(span, key, fn.get("arguments"), strict=False)
                msg.calls.append(Call(fn["name"], _args(arguments), _id(call.get("id"))))
    if msg.role == "tool" and isinstance(item.get("id"), str):
        msg.results[item["id"]] = content
    return msg


def _id(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _messages_value(span: Span, key: str, value: Any, role: str) -> list[Msg]:
    """Messages from a GenAI messages attribute (JSON text or structured), or plain text
    (one message of ``role``)."""
    parsed = _json(span, key, value, strict=False)
    if isinstance(parsed, dict):
        parsed = [parsed]
    if isinstance(parsed, list):
        found = [_parts_message(span, key, item) for item in parsed]
        return [m for m in found if m is not None]
    if isinstance(parsed, str) and parsed:
        return [Msg(role=role, text=parsed)]
    return []


def indexed(attrs: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    """Flattened list attributes (``prefix.0.rest``, ``prefix.1.rest``) as one dict of
    ``rest -> value`` per index, in index order."""
    groups: dict[int, dict[str, Any]] = {}
    start = prefix + "."
    for key, value in attrs.items():
        if key.startswith(start) and (found := _INDEXED.fullmatch(key[len(start) :])):
            number = int(found.group(1))
            if number < MAX_INDEX:
                groups.setdefault(number, {})[found.group(2)] = value
    return [groups[n] for n in sorted(groups)]


def _oi_message(span: Span, key: str, item: dict[str, Any]) -> Msg:
    """An OpenInference message (``message.role``, ``message.content``, ...)."""
    msg = Msg(role=str(item.get("message.role") or item.get("role") or ""))
    content = item.get("message.content", item.get("content"))
    texts = [
        str(c["message_content.text"])
        for c in indexed(item, "message.contents")
        if isinstance(c.get("message_content.text"), str)
    ]
    msg.text = content if isinstance(content, str) else "".join(texts)
    for call in indexed(item, "message.tool_calls") + indexed(item, "tool_calls"):
        name = call.get("tool_call.function.name", call.get("name"))
        if isinstance(name, str) and name:
            raw = call.get("tool_call.function.arguments", call.get("arguments"))
            arguments = _json(span, key, raw, strict=False)
            msg.calls.append(
                Call(name, _args(arguments), _id(call.get("tool_call.id", call.get("id"))))
            )
    call_id = item.get("message.tool_call_id", item.get("tool_call_id"))
    if msg.role == "tool" and isinstance(call_id, str):
        msg.results[call_id] = content
    return msg


def _indexed_messages(span: Span, prefix: str) -> list[Msg]:
    return [_oi_message(span, prefix, item) for item in indexed(span.attrs, prefix)]


def _events(span: Span, names: tuple[str, ...], key: str, role: str) -> list[Msg]:
    found: list[Msg] = []
    for name, attrs in span.events:
        if name in names and key in attrs:
            found += _messages_value(span, key, attrs[key], role)
    return found


_DETAILS = ("gen_ai.client.inference.operation.details",)


def input_messages(span: Span) -> list[Msg]:
    """The messages sent to the model (or the agent) in this span, by any convention."""
    if "gen_ai.input.messages" in span.attrs:
        return _messages_value(
            span, "gen_ai.input.messages", span.attrs["gen_ai.input.messages"], "user"
        )
    return (
        _events(span, _DETAILS, "gen_ai.input.messages", "user")
        or _events(span, ("gen_ai.content.prompt",), "gen_ai.prompt", "user")
        or _indexed_messages(span, "llm.input_messages")
        or _indexed_messages(span, "gen_ai.prompt")
    )


def output_messages(span: Span) -> list[Msg]:
    """The messages the model (or the agent) answered in this span, by any convention."""
    if "gen_ai.output.messages" in span.attrs:
        value = span.attrs["gen_ai.output.messages"]
        return _messages_value(span, "gen_ai.output.messages", value, "assistant")
    return (
        _events(span, _DETAILS, "gen_ai.output.messages", "assistant")
        or _events(span, ("gen_ai.content.completion",), "gen_ai.completion", "assistant")
        or _indexed_messages(span, "llm.output_messages")
        or _indexed_messages(span, "gen_ai.completion")
    )


def _value_text(span: Span, key: str, keys: tuple[str, ...], roles: tuple[str, ...]) -> str | None:
    """OpenInference ``input.value`` / ``output.value``: JSON (its query or answer key, or
    its messages) or plain text."""
    value = span.attrs.get(key)
    if not isinstance(value, str):
        return None
    if value.lstrip()[:1] in ("{", "["):
        parsed = _json(span, key, value, strict=False)
        if isinstance(parsed, dict):
            return _text(parsed, keys, roles)
    return value


def last_text(messages: list[Msg], roles: tuple[str, ...]) -> str | None:
    """The last non-empty text of a message with one of ``roles``."""
    said = [m.text for m in messages if m.role in roles and m.text.strip()]
    return said[-1] if said else None


def query_of(span: Span) -> str | None:
    """What the user asked, as this span records it (None: it does not)."""
    return _value_text(span, "input.value", QUERY_KEYS, _USER) or last_text(
        input_messages(span), _USER
    )


def answer_of(span: Span) -> str | None:
    """What was answered, as this span records it (None: it does not)."""
    return _value_text(span, "output.value", OUTPUT_KEYS, _AI) or last_text(
        output_messages(span), _AI
    )


def tool_use(span: Span) -> dict[str, Any]:
    """A tool span as a :class:`~arena.production.ToolUse` row: name, arguments, result,
    error."""
    attrs = span.attrs
    name = attrs.get("gen_ai.tool.name") or attrs.get("tool.name")
    if not isinstance(name, str) or not name:
        name = span.name.removeprefix("execute_tool").strip() or span.name
    if not name:
        raise span.fail("a tool span needs gen_ai.tool.name or tool.name", "gen_ai.tool.name")
    raw: Any = None
    for key in ("gen_ai.tool.call.arguments", "tool_call.function.arguments", "input.value"):
        if key in attrs:
            raw = _json(span, key, attrs[key], strict=False)
            break
    if raw is None and "tool.parameters" in attrs:  # some tracers put the arguments here
        params = _json(span, "tool.parameters", attrs["tool.parameters"], strict=False)
        raw = None if isinstance(params, dict) and "properties" in params else params
    result: Any = None
    for key in ("gen_ai.tool.call.result", "output.value"):
        if key in attrs:
            result = attrs[key]
            break
    return {"name": name, "arguments": _args(raw), "result": result, "error": span.error}


def usage(span: Span) -> tuple[int | None, int | None]:
    """(input, output) tokens of a model call span (None: not recorded)."""
    attrs = span.attrs

    def first(*keys: str) -> int | None:
        for key in keys:
            value = attrs.get(key)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise span.fail(f"expected a token count (a whole number >= 0), got {value!r}", key)
            return value
        return None

    return (
        first("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"),
        first(
            "gen_ai.usage.output_tokens",
            "gen_ai.usage.completion_tokens",
            "llm.token_count.completion",
        ),
    )


def model_of(span: Span) -> tuple[str | None, str | None]:
    """(provider, model) of a model call span."""
    attrs = span.attrs
    model = next(
        (
            attrs[k]
            for k in (
                "gen_ai.response.model",
                "gen_ai.request.model",
                "llm.response.model_name",
                "llm.model_name",
                "llm.request.model_name",
            )
            if isinstance(attrs.get(k), str) and attrs[k]
        ),
        None,
    )
    provider = next(
        (
            attrs[k]
            for k in ("gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system")
            if isinstance(attrs.get(k), str) and attrs[k]
        ),
        None,
    )
    return provider, model


def reported_cost(span: Span) -> float | None:
    """The cost a tracer recorded on the span (OpenInference ``llm.cost.total``), if any."""
    value = span.attrs.get("llm.cost.total")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise span.fail(f"expected a cost in dollars (>= 0), got {value!r}", "llm.cost.total")
    return float(value)


def metadata_of(span: Span) -> dict[str, Any]:
    """The trace's metadata: OpenInference ``metadata`` (a JSON object), and the service,
    session, user, agent and conversation, nested by their dots (``--stratify
    service.name``)."""
    found: dict[str, Any] = {}
    meta = _json(span, "metadata", span.attrs.get("metadata"), strict=False)
    if isinstance(meta, dict):
        found.update(meta)
    named = {
        "service.name": span.resource.get("service.name"),
        "session.id": span.attrs.get("session.id"),
        "user.id": span.attrs.get("user.id"),
        "gen_ai.agent.name": span.attrs.get("gen_ai.agent.name"),
        "gen_ai.conversation.id": span.attrs.get("gen_ai.conversation.id"),
    }
    for key, value in named.items():
        if isinstance(value, str | int | float | bool):
            *parents, last = key.split(".")
            node = found
            for part in parents:
                child = node.get(part)
                node[part] = child = child if isinstance(child, dict) else {}
                node = child
            node[last] = value
    return found


def as_text(value: Any) -> str:
    """A tool result as text (JSON for structured values)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

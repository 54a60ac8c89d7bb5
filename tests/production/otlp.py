"""OTLP JSON made for the tests, in the encoding the OpenTelemetry Collector's file exporter
writes (hex ids, nanosecond times as decimal strings, ``AnyValue`` attributes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

START = 1_764_583_923_000_000_000  # 2025-12-01T10:12:03Z, in nanoseconds


def attr(key: str, value: Any) -> dict[str, Any]:
    """One OTLP ``KeyValue`` (strings, ints as decimal strings, floats, bools)."""
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    if isinstance(value, float):
        return {"key": key, "value": {"doubleValue": value}}
    return {"key": key, "value": {"stringValue": value}}


def span(
    trace: int,
    number: int,
    parent: int | None,
    attrs: dict[str, Any],
    *,
    start: float = 0.0,
    end: float = 1.0,
    name: str = "span",
    **more: Any,
) -> dict[str, Any]:
    """Span ``number`` of trace ``trace`` (both small ints made hex ids), ``start``/``end``
    in seconds after :data:`START`."""
    return {
        "traceId": f"{trace:032x}",
        "spanId": f"{number:016x}",
        "parentSpanId": "" if parent is None else f"{parent:016x}",
        "name": name,
        "kind": 1,
        "startTimeUnixNano": str(START + int(start * 1e9)),
        "endTimeUnixNano": str(START + int(end * 1e9)),
        "attributes": [attr(k, v) for k, v in attrs.items()],
        "status": {},
        **more,
    }


def document(spans: list[dict[str, Any]], service: str = "bot") -> dict[str, Any]:
    """An ``ExportTraceServiceRequest`` holding ``spans``."""
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": [attr("service.name", service)]},
                "scopeSpans": [{"scope": {"name": "tests"}, "spans": spans}],
            }
        ]
    }


def agent_trace(trace: int, query: str, answer: str, *, start: float = 0.0) -> list[dict]:
    """A GenAI agent trace: an ``invoke_agent`` root and one ``chat`` span under it."""
    messages = [{"role": "user", "parts": [{"type": "text", "content": query}]}]
    said = [{"role": "assistant", "parts": [{"type": "text", "content": answer}]}]
    root = span(trace, 1, None, {"gen_ai.operation.name": "invoke_agent"},
                start=start, end=start + 2)  # fmt: skip
    chat = span(
        trace,
        2,
        1,
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.usage.input_tokens": 100,
            "gen_ai.usage.output_tokens": 10,
            "gen_ai.input.messages": json.dumps(messages),
            "gen_ai.output.messages": json.dumps(said),
        },
        start=start + 0.5,
        end=start + 1.5,
    )
    return [chat, root]


def write_lines(path: Path, documents: list[dict[str, Any]]) -> str:
    """The documents one a line, as the file exporter writes them; the path as text."""
    path.write_text("".join(json.dumps(d) + "\n" for d in documents), encoding="utf-8")
    return str(path)

"""LangSmith runs as production traces: a runs export (JSON list or JSONL of root runs), the
CSV that ``arena langsmith import`` reads, and the runs the REST API returns.

A run is the shape the LangSmith SDK's ``Run`` serialises to: ``id``, ``name``,
``run_type``, ``inputs``, ``outputs``, ``start_time``, ``end_time``, ``error``, ``extra``
(its ``metadata``), ``parent_run_id``, ``prompt_tokens``, ``completion_tokens``,
``total_tokens``, ``total_cost``, ... Child runs (a ``parent_run_id``) are skipped: a trace
is its root run. The query is ``inputs``' last user message, else its ``query``, ``input``,
``question``, ``prompt`` or ``text``; the answer is ``outputs``' last assistant message, else
its ``output``, ``answer`` or ``response``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from arena.errors import InputError
from arena.production._lines import validated
from arena.production._trace import ProductionTrace

QUERY_KEYS = ("query", "input", "question", "prompt", "text")
OUTPUT_KEYS = ("output", "answer", "response", "content", "text")
_USER = ("human", "user", "HumanMessage")
_AI = ("ai", "assistant", "AIMessage", "AIMessageChunk")


def _message(value: Any) -> tuple[str, str] | None:
    """(role, text) of one message in any of LangSmith's spellings, or None."""
    if not isinstance(value, dict):
        return None
    if value.get("lc") and isinstance(value.get("kwargs"), dict):  # serialised LangChain
        kind = value.get("id") or []
        role = str(kind[-1]) if isinstance(kind, list) and kind else ""
        value = {**value["kwargs"], "type": value["kwargs"].get("type", role)}
    role = value.get("role") or value.get("type")
    content = value.get("content")
    if isinstance(content, list):  # content blocks: the text ones
        content = "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    if not isinstance(role, str) or not isinstance(content, str):
        return None
    return role, content


def _messages(section: dict[str, Any]) -> list[tuple[str, str]]:
    found = section.get("messages")
    if isinstance(found, list) and found and isinstance(found[0], list):
        found = found[-1]  # a chat model's batch: the last conversation
    if not isinstance(found, list):
        return []
    return [m for m in (_message(v) for v in found) if m is not None]


def _text(section: Any, keys: tuple[str, ...], roles: tuple[str, ...]) -> str | None:
    if isinstance(section, str):
        return section
    if not isinstance(section, dict):
        return None
    said = [text for role, text in _messages(section) if role in roles]
    if said:
        return said[-1]
    for key in keys:
        value = section.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and (found := _message(value)) is not None:
            return found[1]
    strings = [v for v in section.values() if isinstance(v, str)]
    return strings[0] if len(strings) == 1 else None


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _number(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return float(Decimal(str(value)))
    except (InvalidOperation, ValueError):
        return None


def _tools(outputs: Any) -> list[dict[str, Any]]:
    """The tool calls of an agent's output messages, each with the result its tool message
    gave (matched by ``tool_call_id``)."""
    found = outputs.get("messages") if isinstance(outputs, dict) else None
    if not isinstance(found, list):
        return []
    results = {
        m.get("tool_call_id"): m.get("content")
        for m in found
        if isinstance(m, dict) and m.get("type") == "tool"
    }
    tools = []
    for message in found:
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        for call in calls if isinstance(calls, list) else []:
            if isinstance(call, dict) and isinstance(call.get("name"), str) and call["name"]:
                args = call.get("args")
                tools.append(
                    {
                        "name": call["name"],
                        "arguments": args if isinstance(args, dict) else {},
                        "result": results.get(call.get("id")),
                    }
                )
    return tools


def is_root(run: dict[str, Any]) -> bool:
    """True for a trace's root run (no parent)."""
    return not run.get("parent_run_id")


def run_to_trace(run: dict[str, Any], *, file: str, where: str) -> ProductionTrace:
    """One root run as a trace; InputError naming the file, place and field."""
    run_id = run.get("id")
    if not isinstance(run_id, str | int) or isinstance(run_id, bool) or not str(run_id):
        raise InputError("a run needs an id", file=file, at=where, field="id")
    query = _text(run.get("inputs"), QUERY_KEYS, _USER)
    if query is None or not query.strip():
        keys = ", ".join(run.get("inputs") or {}) if isinstance(run.get("inputs"), dict) else ""
        raise InputError(
            f"no query in inputs (keys: {keys or 'none'}); expected messages or one "
            f"of {', '.join(QUERY_KEYS)}",
            file=file,
            at=where,
            field="inputs",
        )
    answer = _text(run.get("outputs"), OUTPUT_KEYS, _AI)
    if answer is None and not run.get("error"):
        raise InputError(
            f"no answer in outputs; expected messages or one of {', '.join(OUTPUT_KEYS)}",
            file=file,
            at=where,
            field="outputs",
        )
    start, end = _time(run.get("start_time")), _time(run.get("end_time"))
    extra = run.get("extra")
    metadata = extra.get("metadata") if isinstance(extra, dict) else None
    if not isinstance(metadata, dict):
        metadata = {}
    data = {
        "trace_id": str(run_id),
        "query": query,
        "answer": answer or "",
        "tools": _tools(run.get("outputs")),
        "latency_s": (end - start).total_seconds() if start and end and end >= start else None,
        "input_tokens": run.get("prompt_tokens"),
        "output_tokens": run.get("completion_tokens"),
        "total_tokens": run.get("total_tokens"),
        "cost": _number(run.get("total_cost")),
        "timestamp": start,
        "error": run.get("error") if isinstance(run.get("error"), str) else None,
        "metadata": {k: v for k, v in metadata.items() if not str(k).startswith("LANGSMITH")},
    }
    return validated(ProductionTrace, data, file=file, where=where)


def runs_to_traces(
    runs: Iterator[tuple[str, dict[str, Any]]], *, file: str
) -> Iterator[tuple[str, ProductionTrace]]:
    """(place, trace) of every root run among ``(place, run)``; child runs are skipped."""
    for where, run in runs:
        if is_root(run):
            yield where, run_to_trace(run, file=file, where=where)


def query_id(query: str) -> str:
    """The trace id of a CSV row without one: a hash of its query (stable across reruns)."""
    return "csv-" + hashlib.sha256(query.encode()).hexdigest()[:16]


def example_to_trace(example: dict[str, Any], *, file: str, where: str) -> ProductionTrace:
    """A row of ``arena langsmith``'s CSV (``inputs``/``outputs``/``metadata``) as a trace;
    without an ``id`` column its id is a hash of the query."""
    inputs = example.get("inputs") or {}
    query = _text(inputs, QUERY_KEYS, _USER)
    if query is None or not query.strip():
        raise InputError("no query column", file=file, at=where, field="inputs")
    answer = _text(example.get("outputs") or {}, (*OUTPUT_KEYS, "reference_answer"), _AI)
    if answer is None:
        raise InputError("no answer column", file=file, at=where, field="outputs")
    metadata = dict(example.get("metadata") or {})
    trace_id = example.get("id") or metadata.pop("trace_id", None) or metadata.pop("run_id", None)
    if not trace_id:
        trace_id = query_id(query)
    data = {"trace_id": str(trace_id), "query": query, "answer": answer, "metadata": metadata}
    return validated(ProductionTrace, data, file=file, where=where)

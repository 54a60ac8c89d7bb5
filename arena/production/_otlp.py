"""OpenTelemetry traces (OTLP JSON) as production traces: one per root span.

The OpenTelemetry Collector's file exporter writes one ``ExportTraceServiceRequest`` a line
(``{"resourceSpans": [...]}``); a ``.json`` file may also hold one such object, pretty-printed,
and a folder holds the files the exporter rotated. The spans of one trace can be anywhere in
an export (a child span is usually exported before its parent), so the file is read line by
line (each line bounded, parsed strictly) and each span's fields that matter are kept until
the end, at most :data:`MAX_SPANS` of them; then every trace is rebuilt from its spans:

- its **root** is the span without a parent among the trace's spans (one parent from another
  service, not exported, makes a root too); more than one is refused;
- the **query** is the root's (OpenInference ``input.value``, GenAI ``gen_ai.input.messages``
  or prompt events), else the last user message of its first model call;
- the **answer** is the root's output, else the last assistant text of its last model call;
- the **tool calls** are its tool spans (``execute_tool``, OpenInference ``TOOL``) in start
  order, else the tool calls its model calls asked for (with the results later messages
  gave);
- the **latency** is the root's duration; the **tokens** are summed over its model calls; the
  **cost** is the tracer's (``llm.cost.total``) or the pricing table's for the model
  (:func:`arena.models.model_price`), and unknown (null, never $0) when a model call's price is
  not known;
- the **timestamp** is the root's start, the **error** the root's status message, the
  **metadata** the root's (:func:`~arena.production._otlp_conventions.metadata_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.errors import InputError
from arena.production._lines import validated
from arena.production._otlp_conventions import (
    _AI,
    _USER,
    Msg,
    answer_of,
    input_messages,
    kind,
    last_text,
    metadata_of,
    model_of,
    output_messages,
    query_of,
    reported_cost,
    tool_use,
    usage,
)
from arena.production._otlp_spans import Span, document_spans
from arena.production._trace import ProductionTrace

#: The most spans one read holds (every span of a trace is needed before it is rebuilt).
MAX_SPANS = 500_000
#: The most spans one trace may have.
MAX_TRACE_SPANS = 10_000
#: The most files read from a folder.
MAX_FILES = 10_000


class SpanPool:
    """The spans read so far, grouped by trace (bounded: :data:`MAX_SPANS`)."""

    def __init__(self) -> None:
        self.traces: dict[str, dict[str, Span]] = {}
        self.count = 0

    def add(self, spans: Iterable[Span]) -> None:
        """Keep ``spans``; a span id given twice in a trace, or too many spans, is refused."""
        for span in spans:
            trace = self.traces.setdefault(span.trace_id, {})
            if span.span_id in trace:
                first = trace[span.span_id]
                place = ", ".join(p for p in (first.file, first.at, first.path) if p)
                raise InputError(
                    f"span {span.span_id} of trace {span.trace_id} is given twice (first at "
                    f"{place}): which one production recorded would be a guess",
                    file=span.file,
                    at=span.at,
                    field=f"{span.path}.spanId",
                )
            if len(trace) >= MAX_TRACE_SPANS:
                raise span.fail(f"trace has more than {MAX_TRACE_SPANS} spans")
            self.count += 1
            if self.count > MAX_SPANS:
                raise InputError(
                    f"more than {MAX_SPANS} spans: the spans of a trace can be anywhere in an "
                    "export, so they are held until the end; export a shorter time span",
                    file=span.file,
                    at=span.at,
                )
            trace[span.span_id] = span

    def add_lines(self, objects: Iterable[tuple[int, Any]], *, file: str) -> None:
        """Keep the spans of an OTLP JSON Lines stream (``(line number, object)`` pairs)."""
        for number, doc in objects:
            self.add(document_spans(doc, file=file, at=f"line {number}"))

    def add_document(self, doc: Any, *, file: str) -> None:
        """Keep the spans of one whole OTLP JSON document."""
        self.add(document_spans(doc, file=file, at=None))

    def traces_in_order(self) -> Iterator[tuple[str, ProductionTrace]]:
        """(place, trace) of every trace, in the order of their roots' start times."""
        rooted = [(root_of(spans), spans) for spans in self.traces.values()]
        rooted.sort(key=lambda item: (item[0].start, item[0].trace_id))
        for number, (root, spans) in enumerate(rooted, 1):
            yield root.at or f"trace #{number}", rebuild(root, list(spans.values()))


def root_of(spans: dict[str, Span]) -> Span:
    """The trace's root: its one span whose parent is not among its spans."""
    tops = [s for s in spans.values() if not s.parent or s.parent not in spans]
    if len(tops) == 1:
        return tops[0]
    tops.sort(key=lambda s: s.start)
    named = ", ".join(s.span_id for s in tops[:5])
    raise tops[1].fail(
        f"the trace has {len(tops)} spans without a parent among its spans ({named}): one "
        "root is needed to tell its query and answer"
    )


def _calls_from_messages(llms: list[Span]) -> list[dict[str, Any]]:
    """The tool calls the model calls asked for, with the results later messages carry."""
    results: dict[str, Any] = {}
    for span in llms:
        for msg in input_messages(span):
            results.update(msg.results)
    tools = []
    for span in llms:
        for msg in output_messages(span):
            for call in msg.calls:
                found = results.get(call.id) if call.id else None
                tools.append({"name": call.name, "arguments": call.arguments, "result": found})
    return tools


def _first_user(llms: list[Span]) -> str | None:
    for span in llms:
        if (text := last_text(input_messages(span), _USER)) is not None:
            return text
    return None


def _last_answer(llms: list[Span]) -> str | None:
    for span in sorted(llms, key=lambda s: (s.end, s.start), reverse=True):
        messages: list[Msg] = output_messages(span)
        if (text := last_text(messages, _AI)) is not None:
            return text
    return None


def _tokens_and_cost(llms: list[Span]) -> tuple[int | None, int | None, float | None]:
    """Tokens summed over the model calls (None when none recorded them) and the cost (None
    when a call's price is unknown)."""
    from arena.models import model_price

    tokens_in: int | None = None
    tokens_out: int | None = None
    cost: float | None = 0.0
    for span in llms:
        used_in, used_out = usage(span)
        if used_in is not None:
            tokens_in = (tokens_in or 0) + used_in
        if used_out is not None:
            tokens_out = (tokens_out or 0) + used_out
        spent = reported_cost(span)
        if spent is None:
            provider, model = model_of(span)
            price = model_price(model, provider) if model else None
            if price is None or used_in is None or used_out is None:
                cost = None
                continue
            spent = price.cost(used_in, used_out)
        cost = None if cost is None else cost + spent
    return tokens_in, tokens_out, cost if llms else None


def rebuild(root: Span, spans: list[Span]) -> ProductionTrace:
    """The production trace of one trace's spans (see the module doc)."""
    ordered = sorted(spans, key=lambda s: (s.start, s.end, s.span_id))
    llms = [s for s in ordered if kind(s) == "llm"]
    query = query_of(root) or _first_user(llms)
    if query is None or not query.strip():
        raise root.fail(
            "no query: the root span has no input.value or gen_ai.input.messages (nor "
            "prompt events), and no model call of the trace has a user message",
            "input.value",
        )
    answer = answer_of(root) or _last_answer(llms)
    if answer is None and root.error is None:
        raise root.fail(
            "no answer: the root span has no output.value or gen_ai.output.messages (nor "
            "completion events), and no model call of the trace has an assistant message",
            "output.value",
        )
    tool_spans = [s for s in ordered if kind(s) == "tool" and s is not root]
    tools = [tool_use(s) for s in tool_spans] if tool_spans else _calls_from_messages(llms)
    tokens_in, tokens_out, cost = _tokens_and_cost(llms)
    data = {
        "trace_id": root.trace_id,
        "query": query,
        "answer": answer or "",
        "tools": tools,
        "latency_s": (root.end - root.start) / 1e9,
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "total_tokens": None if tokens_in is None or tokens_out is None else tokens_in + tokens_out,
        "cost": cost,
        "timestamp": datetime.fromtimestamp(root.start / 1e9, UTC),
        "error": root.error,
        "metadata": metadata_of(root),
    }
    return validated(ProductionTrace, data, file=root.file, where=root.at or root.path)


def folder_files(folder: Path) -> list[Path]:
    """The files of an exporter's folder (hidden files and sub-folders left out), by name."""
    try:
        found = [p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
    except OSError as exc:
        raise InputError(
            f"cannot read the folder: {exc.strerror or exc}", file=str(folder)
        ) from None
    if not found:
        raise InputError("the folder holds no file", file=str(folder))
    if len(found) > MAX_FILES:
        raise InputError(f"more than {MAX_FILES} files in the folder", file=str(folder))
    return sorted(found)

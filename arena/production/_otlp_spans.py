"""OTLP JSON spans, as the OpenTelemetry Collector's file exporter writes them, checked and
reduced to what a production trace needs.

A document is ``{"resourceSpans": [{"resource": {"attributes": [...]}, "scopeSpans":
[{"scope": {...}, "spans": [...]}]}]}`` (the OTLP/JSON encoding of
``ExportTraceServiceRequest``: ids in hex, 64-bit integers as decimal strings, attribute values
as ``AnyValue`` objects). Every span is checked strictly (ids, times, attribute values; a
``doubleValue`` of ``"NaN"`` or ``"Infinity"``, which protobuf JSON allows, is refused) and a
failure is an :class:`~arena.errors.InputError` naming the file, the line and the field's path
(``resourceSpans[0].scopeSpans[0].spans[2].attributes[gen_ai.usage.input_tokens]``). Only the
attributes and events the reconstruction reads are kept (:data:`KEPT_PREFIXES`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from arena.errors import InputError

#: Attribute keys kept on a span (the GenAI semantic conventions, OpenLLMetry's indexed
#: ``gen_ai.prompt.N``, OpenInference); the rest is dropped when the span is read.
KEPT_PREFIXES = (
    "gen_ai.",
    "llm.",
    "input.",
    "output.",
    "tool.",
    "tool_call.",
    "openinference.",
    "exception.",
)
#: Attribute keys kept whole.
KEPT_KEYS = ("metadata", "session.id", "user.id", "service.name")
#: Span events kept (their content attributes): GenAI content events and exceptions.
KEPT_EVENTS = ("gen_ai.", "exception")
#: The most items an OTLP array or key-value list may hold.
MAX_ITEMS = 100_000

_HEX_TRACE = re.compile(r"[0-9a-fA-F]{32}")
_HEX_SPAN = re.compile(r"[0-9a-fA-F]{16}")
_INT = re.compile(r"-?[0-9]{1,19}")
_UINT = re.compile(r"[0-9]{1,20}")
_ERROR_CODES = (2, "STATUS_CODE_ERROR")


@dataclass
class Span:
    """One span: its ids, times (nanoseconds since the epoch), status, the attributes and
    events that matter, and where it was read (file, line, path in the document)."""

    trace_id: str
    span_id: str
    parent: str
    name: str
    start: int
    end: int
    attrs: dict[str, Any]
    events: list[tuple[str, dict[str, Any]]]
    error: str | None
    resource: dict[str, Any]
    file: str
    at: str | None
    path: str

    def fail(self, message: str, key: str | None = None) -> InputError:
        """An InputError at this span (``key``: one of its attributes)."""
        where = f"{self.path}.attributes[{key}]" if key else self.path
        return InputError(f"{message} (trace {self.trace_id})", file=self.file, at=self.at,
                          field=where)  # fmt: skip


def _kept(key: str) -> bool:
    return key in KEPT_KEYS or key.startswith(KEPT_PREFIXES)


class _Reader:
    """Reads one OTLP document; every error names ``file``, ``at`` and the field path."""

    def __init__(self, file: str, at: str | None) -> None:
        self.file, self.at = file, at

    def fail(self, message: str, path: str) -> InputError:
        return InputError(message, file=self.file, at=self.at, field=path)

    def items(self, value: Any, path: str, *, optional: bool = True) -> list[Any]:
        if value is None and optional:
            return []
        if not isinstance(value, list):
            raise self.fail("expected a JSON list", path)
        if len(value) > MAX_ITEMS:
            raise self.fail(f"more than {MAX_ITEMS} items", path)
        return value

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail("expected a JSON object", path)
        return value

    def any_value(self, value: Any, path: str) -> Any:
        """An OTLP ``AnyValue`` as plain data (strings, numbers, lists, dicts)."""
        value = self.obj(value, path)
        if not value:
            return None
        if len(value) != 1:
            raise self.fail(f"an AnyValue holds one of its kinds, got {sorted(value)}", path)
        ((kind, inner),) = value.items()
        at = f"{path}.{kind}"
        if kind in ("stringValue", "bytesValue"):
            if not isinstance(inner, str):
                raise self.fail("expected a string", at)
            return inner
        if kind == "boolValue":
            if not isinstance(inner, bool):
                raise self.fail("expected true or false", at)
            return inner
        if kind == "intValue":
            return self.integer(inner, at)
        if kind == "doubleValue":
            return self.double(inner, at)
        if kind == "arrayValue":
            values = self.obj(inner, at).get("values")
            return [self.any_value(v, f"{at}[{i}]") for i, v in enumerate(self.items(values, at))]
        if kind == "kvlistValue":
            return self.attributes(self.obj(inner, at).get("values"), at, keep=None)
        raise self.fail(f"unknown AnyValue kind {kind!r}", path)

    def integer(self, value: Any, path: str) -> int:
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if not isinstance(text, str) or not _INT.fullmatch(text):
            raise self.fail(f"not a 64-bit integer: {str(value)[:40]!r}", path)
        number = int(text)
        if not -(2**63) <= number < 2**63:
            raise self.fail(f"not a 64-bit integer: {text[:40]!r}", path)
        return number

    def double(self, value: Any, path: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise self.fail("expected a number", path)
        try:
            number = float(value)
        except ValueError:
            raise self.fail(f"not a number: {value[:40]!r}", path) from None  # type: ignore[index]
        if not math.isfinite(number):
            raise self.fail(f"{value!r} is not a finite number", path)
        return number

    def attributes(self, values: Any, path: str, *, keep: Any = _kept) -> dict[str, Any]:
        """OTLP ``KeyValue`` list as a dict (only the keys ``keep`` accepts); a key given twice
        is refused (which value counts would be a guess)."""
        found: dict[str, Any] = {}
        for i, item in enumerate(self.items(values, path)):
            item = self.obj(item, f"{path}[{i}]")
            key = item.get("key")
            if not isinstance(key, str) or not key:
                raise self.fail("an attribute needs a key (a string)", f"{path}[{i}].key")
            at = f"{path}[{key}]"
            if key in found:
                raise self.fail("attribute given twice", at)
            value = self.any_value(item.get("value", {}), at)
            if keep is None or keep(key):
                found[key] = value
        return found

    def unix_nano(self, value: Any, path: str) -> int:
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if not isinstance(text, str) or not _UINT.fullmatch(text) or int(text) >= 2**64:
            raise self.fail(f"not a time in nanoseconds since 1970: {str(value)[:40]!r}", path)
        return int(text)

    def hex_id(self, value: Any, path: str, pattern: re.Pattern[str], *, empty: bool) -> str:
        if empty and value in (None, ""):
            return ""
        if not isinstance(value, str) or not pattern.fullmatch(value) or not value.strip("0"):
            size = 32 if pattern is _HEX_TRACE else 16
            raise self.fail(
                f"expected {size} hex digits (not all zero), as OTLP JSON writes ids, got "
                f"{str(value)[:40]!r}",
                path,
            )
        return value.lower()

    def error(self, status: Any, path: str, events: list[tuple[str, dict[str, Any]]]) -> str | None:
        if status is None:
            return None
        status = self.obj(status, path)
        if status.get("code") not in _ERROR_CODES:
            return None
        message = status.get("message")
        if isinstance(message, str) and message:
            return message
        raised = [a.get("exception.message") for n, a in events if n == "exception"]
        texts = [m for m in raised if isinstance(m, str) and m]
        return texts[0] if texts else "error (span status ERROR)"

    def span(self, value: Any, path: str, resource: dict[str, Any]) -> Span:
        value = self.obj(value, path)
        events: list[tuple[str, dict[str, Any]]] = []
        for i, event in enumerate(self.items(value.get("events"), f"{path}.events")):
            event = self.obj(event, f"{path}.events[{i}]")
            name = event.get("name")
            if not isinstance(name, str):
                raise self.fail("an event needs a name", f"{path}.events[{i}].name")
            if name.startswith(KEPT_EVENTS):
                attrs = self.attributes(event.get("attributes"), f"{path}.events[{i}].attributes",
                                        keep=None)  # fmt: skip
                events.append((name, attrs))
        name = value.get("name", "")
        start = self.unix_nano(value.get("startTimeUnixNano"), f"{path}.startTimeUnixNano")
        end = self.unix_nano(value.get("endTimeUnixNano"), f"{path}.endTimeUnixNano")
        if end < start:
            raise self.fail("the span ends before it starts", f"{path}.endTimeUnixNano")
        return Span(
            trace_id=self.hex_id(value.get("traceId"), f"{path}.traceId", _HEX_TRACE, empty=False),
            span_id=self.hex_id(value.get("spanId"), f"{path}.spanId", _HEX_SPAN, empty=False),
            parent=self.hex_id(
                value.get("parentSpanId"), f"{path}.parentSpanId", _HEX_SPAN, empty=True
            ),
            name=name if isinstance(name, str) else "",
            start=start,
            end=end,
            attrs=self.attributes(value.get("attributes"), f"{path}.attributes"),
            events=events,
            error=self.error(value.get("status"), f"{path}.status", events),
            resource=resource,
            file=self.file,
            at=self.at,
            path=path,
        )


def document_spans(doc: Any, *, file: str, at: str | None) -> list[Span]:
    """The spans of one OTLP JSON document (a line of the file exporter, or a whole file)."""
    reader = _Reader(file, at)
    doc = reader.obj(doc, "resourceSpans")
    if "resourceSpans" not in doc:
        raise InputError(
            "expected OTLP JSON traces (an object with resourceSpans)", file=file, at=at,
            field="resourceSpans",
        )  # fmt: skip
    spans: list[Span] = []
    for r, block in enumerate(reader.items(doc["resourceSpans"], "resourceSpans")):
        path = f"resourceSpans[{r}]"
        block = reader.obj(block, path)
        resource_obj = block.get("resource") or {}
        resource = reader.attributes(
            reader.obj(resource_obj, f"{path}.resource").get("attributes"),
            f"{path}.resource.attributes",
        )
        scopes = block.get("scopeSpans", block.get("instrumentationLibrarySpans"))
        for s, scope in enumerate(reader.items(scopes, f"{path}.scopeSpans")):
            at_scope = f"{path}.scopeSpans[{s}]"
            scope = reader.obj(scope, at_scope)
            for n, span in enumerate(reader.items(scope.get("spans"), f"{at_scope}.spans")):
                spans.append(reader.span(span, f"{at_scope}.spans[{n}]", resource))
    return spans

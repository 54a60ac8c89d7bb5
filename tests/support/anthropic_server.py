"""A server on 127.0.0.1 that speaks Anthropic's Messages API (``POST /v1/messages``, tool
use included) and answers through an OpenAI-compatible upstream: the seeded
:class:`~tests.support.fault_server.FaultServer` for offline tests, or the embedded local
model for integration tests. The real ``anthropic`` client (through ``langchain-anthropic``)
talks to it exactly as to Anthropic.

Faults are injected at the Anthropic layer, in Anthropic's error format: ``faults`` lists
what the first requests get, in order (then every request is answered), or ``always`` makes
every request fail the same way. Kinds: ``429`` (``rate_limit_error``), ``500``
(``api_error``), ``529`` (``overloaded_error``), ``hang`` (no reply for ``hang_s`` seconds),
``bad_json`` (HTTP 200, not JSON).
"""

from __future__ import annotations

import json
import threading
import urllib.request
import uuid
from collections import Counter
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ERRORS = {
    "429": (429, "rate_limit_error", "Number of requests has exceeded your rate limit"),
    "500": (500, "api_error", "Internal server error"),
    "529": (529, "overloaded_error", "Overloaded"),
}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content if b.get("type") == "text")


def to_openai(request: dict[str, Any]) -> dict[str, Any]:
    """An Anthropic Messages request as an OpenAI chat-completions request."""
    messages: list[dict[str, Any]] = []
    if request.get("system"):
        messages.append({"role": "system", "content": _text(request["system"])})
    for message in request["messages"]:
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if message["role"] == "assistant":
            calls = [
                {"id": b["id"], "type": "function",
                 "function": {"name": b["name"], "arguments": json.dumps(b["input"])}}
                for b in blocks if b["type"] == "tool_use"
            ]  # fmt: skip
            entry: dict[str, Any] = {"role": "assistant", "content": _text(blocks)}
            if calls:
                entry["tool_calls"] = calls
            messages.append(entry)
            continue
        for block in blocks:
            if block["type"] == "tool_result":
                result = block.get("content", "")
                messages.append(
                    {"role": "tool", "tool_call_id": block["tool_use_id"], "content": _text(result)}
                )
        text = _text([b for b in blocks if b["type"] == "text"])
        if text:
            messages.append({"role": "user", "content": text})
    body: dict[str, Any] = {
        "model": request["model"],
        "messages": messages,
        "max_tokens": request.get("max_tokens", 256),
        "temperature": request.get("temperature", 0.0),
    }
    if request.get("tools"):
        body["tools"] = [
            {"type": "function", "function": {"name": t["name"],
             "description": t.get("description", ""), "parameters": t["input_schema"]}}
            for t in request["tools"]
        ]  # fmt: skip
    return body


def to_anthropic(completion: dict[str, Any], model: str, tools: bool = False) -> dict[str, Any]:
    """An OpenAI chat completion as an Anthropic Messages response. With ``tools`` bound, a
    reply that is a bare JSON tool call (the embedded model's way) is a ``tool_use`` block."""
    from arena.models._json_calls import parse_json_tool_calls

    message = completion["choices"][0]["message"]
    calls = [(c["function"]["name"], json.loads(c["function"]["arguments"] or "{}"))
             for c in message.get("tool_calls") or []]  # fmt: skip
    text = message.get("content") or ""
    if tools and not calls and text:
        calls = [(c["name"], c["args"]) for c in parse_json_tool_calls(text)]
        text = "" if calls else text
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    for name, arguments in calls:
        content.append({
            "type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:20]}",
            "name": name, "input": arguments,
        })  # fmt: skip
    usage = completion.get("usage") or {}
    return {
        "id": f"msg_{uuid.uuid4().hex[:20]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": int(usage.get("prompt_tokens", 0)),
            "output_tokens": int(usage.get("completion_tokens", 0)),
        },
    }


class AnthropicServer:
    """The server on a daemon thread; a context manager. ``upstream``: an OpenAI-compatible
    base URL (``http://127.0.0.1:PORT/v1``); ``model``: the upstream model name to ask."""

    def __init__(
        self,
        upstream: str,
        *,
        model: str | None = None,
        faults: Sequence[str] = (),
        always: str | None = None,
        hang_s: float = 30.0,
    ) -> None:
        self.upstream = upstream.rstrip("/")
        self.model = model
        self.faults = list(faults)
        self.always = always
        self.hang_s = hang_s
        self.counts: Counter[str] = Counter()
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """What ``ChatAnthropic(base_url=...)`` takes (the SDK adds ``/v1/messages``)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> AnthropicServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def next_kind(self, request: dict[str, Any]) -> str:
        """What this request gets: a fault or ``ok``."""
        with self._lock:
            self.requests.append(request)
            kind = self.always or (self.faults.pop(0) if self.faults else "ok")
            self.counts[kind] += 1
            return kind

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """Ask the upstream, answer in Anthropic's shape."""
        body = to_openai(request)
        if self.model:
            body["model"] = self.model
        sent = urllib.request.Request(
            f"{self.upstream}/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": "Bearer unused"},
        )
        with urllib.request.urlopen(sent, timeout=600) as reply:
            return to_anthropic(json.loads(reply.read()), request["model"], bool(body.get("tools")))


def _handler(server: AnthropicServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, status: int, body: bytes, **headers: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path.rstrip("/") != "/v1/messages":
                self._send(404, b'{"type":"error","error":{"type":"not_found_error"}}')
                return
            if not (self.headers.get("x-api-key") or self.headers.get("Authorization")):
                self._send(401, b'{"type":"error","error":{"type":"authentication_error"}}')
                return
            request = json.loads(raw)
            kind = server.next_kind(request)
            if kind in ERRORS:
                status, kind_name, message = ERRORS[kind]
                error = {"type": "error", "error": {"type": kind_name, "message": message}}
                self._send(status, json.dumps(error).encode(), **{"retry-after": "0"})
            elif kind == "hang":
                server._stopping.wait(server.hang_s)
                self.close_connection = True
            else:
                body = json.dumps(server.answer(request)).encode()
                self._send(200, body[: len(body) // 2] + b"<html>" if kind == "bad_json" else body)

    return Handler

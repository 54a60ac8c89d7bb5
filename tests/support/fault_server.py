"""An OpenAI-compatible chat-completions server on 127.0.0.1 that injects seeded faults.

In-process (a thread)::

    with FaultServer(rate=0.2, kinds=TRANSIENT, seed=1) as server:
        variant_model = {"spec": "openai:strong", "base_url": server.base_url,
                         "api_key_env": "FAULT_KEY", "timeout": 2}
        ...
        server.configure(rate=0.0)          # the faults stop
        server.reset()                      # counts back to zero
        assert server.stats()["ok"] == 3

As a subprocess (same API: ``base_url``, ``stats()``, ``configure()``, ``reset()``,
``stop()``)::

    with FaultProcess(rate=0.5, kinds=ALL) as server: ...
    # or by hand: python -m tests.support.fault_server --rate 0.5 --kinds 429,500
    # prints {"base_url": "http://127.0.0.1:PORT/v1"} on its first stdout line.

Faults (``kinds``): ``429``, ``500``, ``503`` (JSON error bodies), ``hang`` (no reply for
``hang_s`` seconds: longer than any client timeout in the tests), ``truncated`` (the
connection closes halfway through the body), ``bad_json`` (HTTP 200, not JSON),
``empty_choices`` (HTTP 200, ``choices: []``), ``empty_content`` (HTTP 200, an empty answer),
``no_logprobs`` (a normal reply without the requested logprobs), ``bad_verdict`` (a judge reply
with no readable verdict: no ``[[...]]`` in text, neither A/B nor YES/NO in the logprobs),
``echo_key`` (HTTP ``echo_status``, default 401, whose error message contains the caller's API
key). ``stats()`` counts requests per kind and per model; ``log()`` lists every request as
(body hash, kind, model), e.g. to check that a rerun resends exactly what was not answered.
Whether the n-th request with a given body fails, and how, depends only on the seed, the body
and n, never on arrival order, so a run is reproducible under any concurrency.

Answers are deterministic. An agent request (anything that is not a judge) is answered
``"<model> answer: <digest of the last user message>"`` (or a tool call first, with
``tool_calls=True``). A pairwise judge (a prompt with ``Answer A:`` and ``Answer B:``)
prefers the answer of higher :func:`quality` (``strong`` in an answer beats everything, then a
stable hash), ``[[A>B]]``-style in text or through the first token's ``top_logprobs``; a
grading request (logprobs without two answers) says ``YES``/``NO`` with P(YES) from the
quality. The admin endpoints ``GET /_stats``, ``POST /_config`` and ``POST /_reset`` serve the
subprocess form.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import sys
import threading
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.support.openai_replies import (
    assistant_choice,
    chat_completion,
    digest,
    first_tool_call,
    has_tool_result,
    text_of,
    tool_names,
)
from tests.support.server_process import ServerProcess

TRANSIENT: tuple[str, ...] = ("429", "500", "503", "hang", "truncated")
MALFORMED: tuple[str, ...] = (
    "bad_json",
    "empty_choices",
    "empty_content",
    "no_logprobs",
    "bad_verdict",
)
ALL: tuple[str, ...] = (*TRANSIENT, *MALFORMED)
KINDS: tuple[str, ...] = (*ALL, "echo_key")

_ANSWER = re.compile(
    r"Answer (A|B):\n(?:<answer-[0-9a-f]{8}-[AB]>\n)?(.*?)(?:\n</answer-[0-9a-f]{8}-[AB]>)?"
    r"(?=\n\nAnswer B:|\n\nTools used|\n\nWhich answer|$)",
    re.DOTALL,
)


def quality(answer: str) -> int:
    """How good the fake judge thinks an answer is: 100 with ``strong``, else 0..49."""
    if "strong" in answer.lower():
        return 100
    return int(hashlib.sha256(answer.strip().encode()).hexdigest()[:8], 16) % 50


def _unit(*parts: object) -> float:
    blob = "|".join(str(p) for p in parts).encode()
    return int(hashlib.sha256(blob).hexdigest()[:15], 16) / 16**15


class FaultServer:
    """The server, run on a daemon thread; also a context manager."""

    rate: float
    kinds: tuple[str, ...]
    seed: int
    hang_s: float
    delay_s: float
    tool_calls: bool
    echo_status: int

    def __init__(
        self,
        *,
        rate: float = 0.0,
        kinds: Sequence[str] = TRANSIENT,
        seed: int = 0,
        hang_s: float = 30.0,
        delay_s: float = 0.0,
        tool_calls: bool = False,
        echo_status: int = 401,
        port: int = 0,
        answer: Callable[[str, str], str] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._seen: Counter[str] = Counter()
        self._counts: Counter[str] = Counter()
        self._models: Counter[str] = Counter()
        self._log: list[tuple[str, str, str]] = []
        self.answer_fn = answer
        self.configure(
            rate=rate,
            kinds=kinds,
            seed=seed,
            hang_s=hang_s,
            delay_s=delay_s,
            tool_calls=tool_calls,
            echo_status=echo_status,
        )
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler_for(self))
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        self._thread: threading.Thread | None = None

    # -- control -----------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: what a ModelConfig's ``base_url`` takes."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> FaultServer:
        """Serve on a daemon thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever, name="fault-server", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; hanging requests are released."""
        self._stopping.set()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(10)
        self._httpd.server_close()

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def configure(self, **settings: Any) -> None:
        """Change ``rate``, ``kinds``, ``seed``, ``hang_s``, ``delay_s``, ``tool_calls`` or
        ``echo_status`` while serving."""
        unknown = set(settings) - {
            "rate",
            "kinds",
            "seed",
            "hang_s",
            "delay_s",
            "tool_calls",
            "echo_status",
        }
        if unknown:
            raise ValueError(f"unknown settings {sorted(unknown)}")
        kinds = settings.get("kinds")
        if kinds is not None:
            kinds = tuple(kinds)
            bad = set(kinds) - set(KINDS)
            if bad or not kinds:
                raise ValueError(f"unknown fault kinds {sorted(bad)}; known: {KINDS}")
            settings["kinds"] = kinds
        with self._lock:
            for name, value in settings.items():
                setattr(self, name, value)

    def reset(self) -> None:
        """Counts and the request log back to empty (the fault sequence per body continues)."""
        with self._lock:
            self._counts.clear()
            self._models.clear()
            self._log.clear()

    def log(self) -> list[tuple[str, str, str]]:
        """Every chat request since the last reset: (sha256 of its body, kind served, model)."""
        with self._lock:
            return list(self._log)

    def stats(self) -> dict[str, Any]:
        """``requests`` (all chat requests), ``ok`` (usable replies), one count per fault kind
        served, and ``models`` (requests per model name)."""
        with self._lock:
            out: dict[str, Any] = {"requests": 0, "ok": 0, **dict.fromkeys(KINDS, 0)}
            out.update(self._counts)
            out["models"] = dict(self._models)
            return out

    # -- behaviour ---------------------------------------------------------------------------
    def _decide(self, body: bytes, model: str) -> str:
        """``ok`` or the fault kind for this request, from the seed, the body and n; counted."""
        key = hashlib.sha256(body).hexdigest()
        with self._lock:
            self._seen[key] += 1
            nth = self._seen[key]
            rate, kinds, seed = self.rate, self.kinds, self.seed
            kind = "ok"
            if _unit(seed, key, nth, "fault") < rate:
                kind = kinds[int(_unit(seed, key, nth, "kind") * len(kinds))]
            self._counts["requests"] += 1
            self._counts[kind] += 1
            self._models[model] += 1
            self._log.append((key, kind, model))
        return kind

    def reply(self, request: dict[str, Any], kind: str) -> dict[str, Any]:
        """The completion body for a request that is answered (``kind`` may alter it)."""
        model = str(request.get("model", "model"))
        messages = request.get("messages") or []
        texts = [text_of(m.get("content")) for m in messages if isinstance(m, dict)]
        users = [
            text_of(m.get("content"))
            for m in messages
            if isinstance(m, dict) and m.get("role") == "user"
        ]
        pair = next((t for t in users if "Answer A:" in t and "Answer B:" in t), None)
        wants_logprobs = bool(request.get("logprobs"))
        tool_call = None
        if pair is not None:
            content, tops = _judge_pair(pair, wants_logprobs, kind == "bad_verdict")
        elif wants_logprobs:
            content, tops = _judge_grade(users[-1] if users else "", kind == "bad_verdict")
        else:
            tops = None
            tool_call = self._tool_call(request, messages, users)
            last = users[-1] if users else (texts[-1] if texts else "")
            content = (
                self.answer_fn(model, last) if self.answer_fn else f"{model} answer: {digest(last)}"
            )
        if kind == "empty_content":
            content, tool_call = "", None
        if kind == "no_logprobs":
            tops = None
        choice = assistant_choice(content, tool_call)
        if wants_logprobs and tops is not None:
            choice["logprobs"] = {"content": [_logprob_entry(tops)]}
        return chat_completion(
            f"chatcmpl-{digest(json.dumps(request, sort_keys=True))}",
            model,
            [] if kind == "empty_choices" else [choice],
            texts,
        )

    def _tool_call(
        self, request: dict[str, Any], messages: list[Any], users: list[str]
    ) -> dict[str, Any] | None:
        tools = tool_names(request)
        if not self.tool_calls or not tools or has_tool_result(messages):
            return None
        return first_tool_call(tools, users[-1] if users else "")


def _judge_pair(
    prompt: str, logprobs: bool, broken: bool
) -> tuple[str, list[tuple[str, float]] | None]:
    answers = dict(_ANSWER.findall(prompt))
    qa, qb = quality(answers.get("A", "")), quality(answers.get("B", ""))
    if broken:
        return (
            "I cannot tell which one is better.",
            [("I", 0.7), ("The", 0.2), ("Both", 0.1)] if logprobs else None,
        )
    if logprobs:
        p_a = 1.0 / (1.0 + math.exp(-(qa - qb) / 10.0))
        first = "A" if p_a >= 0.5 else "B"
        return first, [("A", p_a), ("B", 1.0 - p_a)]
    label = "A>B" if qa > qb else "B>A" if qb > qa else "A=B"
    return f"Answer A scores {qa}, answer B scores {qb}.\n[[{label}]]", None


def _judge_grade(prompt: str, broken: bool) -> tuple[str, list[tuple[str, float]] | None]:
    if broken:
        return "Maybe", [("Maybe", 0.8), ("Perhaps", 0.2)]
    match = re.search(r"(?:Answer|Assistant reply):\s*(.*?)(?:\n\n|$)", prompt, re.DOTALL)
    p_yes = min(max(quality(match.group(1) if match else prompt) / 100.0, 0.02), 0.98)
    return ("YES" if p_yes >= 0.5 else "NO"), [("YES", p_yes), ("NO", 1.0 - p_yes)]


def _logprob_entry(tops: list[tuple[str, float]]) -> dict[str, Any]:
    ranked = sorted(tops, key=lambda t: -t[1])
    top = [
        {"token": tok, "logprob": math.log(max(p, 1e-9)), "bytes": list(tok.encode())}
        for tok, p in ranked
    ]
    return {**top[0], "top_logprobs": top}


def _handler_for(server: FaultServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def _send(
            self,
            status: int,
            body: bytes,
            ctype: str = "application/json",
            headers: dict[str, str] | None = None,
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, value: Any, **headers: str) -> None:
            self._send(status, json.dumps(value).encode(), headers=headers)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/_stats":
                self._json(200, server.stats())
            elif self.path.rstrip("/") == "/_log":
                self._json(200, server.log())
            elif self.path.rstrip("/").endswith("/models"):
                self._json(200, {"object": "list", "data": []})
            else:
                self._json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            path = self.path.rstrip("/")
            if path == "/_config":
                try:
                    server.configure(**json.loads(raw or b"{}"))
                except (ValueError, TypeError) as exc:
                    self._json(400, {"error": str(exc)})
                    return
                self._json(200, {"ok": True})
            elif path == "/_reset":
                server.reset()
                self._json(200, {"ok": True})
            elif path.endswith("/chat/completions"):
                self._chat(raw)
            else:
                self._json(404, {"error": {"message": f"no route {self.path}"}})

        def _chat(self, raw: bytes) -> None:
            try:
                request = json.loads(raw)
            except json.JSONDecodeError:
                self._json(400, {"error": {"message": "request body is not JSON"}})
                return
            kind = server._decide(raw, str(request.get("model", "")))
            if kind in ("429", "500", "503"):
                message = {
                    "429": "Rate limit reached, retry later",
                    "500": "Internal server error",
                    "503": "Service unavailable",
                }[kind]
                self._json(
                    int(kind),
                    {"error": {"message": message, "type": "server_error", "code": kind}},
                    **{"Retry-After": "0"},
                )
                return
            if kind == "echo_key":
                key = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
                self._json(
                    server.echo_status,
                    {
                        "error": {
                            "message": f"Incorrect API key provided: {key}. Check your key.",
                            "type": "invalid_request_error",
                            "code": "invalid_api_key",
                        }
                    },
                )
                return
            if kind == "hang":
                server._stopping.wait(server.hang_s)
                self.close_connection = True
                return
            if server.delay_s:
                server._stopping.wait(server.delay_s)
            body = json.dumps(server.reply(request, kind)).encode()
            if kind == "bad_json":
                self._send(200, body[: len(body) // 2] + b"<html>oops")
            elif kind == "truncated":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
            else:
                self._send(200, body)

    return Handler


class FaultProcess(ServerProcess):
    """The same server in a child process (``python -m tests.support.fault_server``)."""

    def __init__(self, **settings: Any) -> None:
        args = [sys.executable, "-m", "tests.support.fault_server"]
        for name, value in settings.items():
            flag = "--" + name.replace("_", "-")
            if name == "kinds":
                args += [flag, ",".join(value)]
            elif isinstance(value, bool):
                args += [flag] if value else []
            else:
                args += [flag, str(value)]
        super().__init__(args, name="fault server", cwd=Path(__file__).resolve().parents[2])
        self._admin = self.base_url.removesuffix("/v1")

    def _post(self, path: str, value: dict[str, Any]) -> None:
        request = urllib.request.Request(
            self._admin + path,
            data=json.dumps(value).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as reply:
            reply.read()

    def stats(self) -> dict[str, Any]:
        """As :meth:`FaultServer.stats`."""
        with urllib.request.urlopen(self._admin + "/_stats", timeout=10) as reply:
            return dict(json.loads(reply.read()))

    def log(self) -> list[tuple[str, str, str]]:
        """As :meth:`FaultServer.log`."""
        with urllib.request.urlopen(self._admin + "/_log", timeout=10) as reply:
            return [tuple(entry) for entry in json.loads(reply.read())]

    def configure(self, **settings: Any) -> None:
        """As :meth:`FaultServer.configure`."""
        if "kinds" in settings:
            settings["kinds"] = list(settings["kinds"])
        self._post("/_config", settings)

    def reset(self) -> None:
        """As :meth:`FaultServer.reset`."""
        self._post("/_reset", {})


def main(argv: list[str] | None = None) -> None:
    """Serve until terminated; print ``{"base_url": ...}`` first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=0.0)
    parser.add_argument("--kinds", default=",".join(TRANSIENT))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hang-s", type=float, default=30.0)
    parser.add_argument("--delay-s", type=float, default=0.0)
    parser.add_argument("--tool-calls", action="store_true")
    parser.add_argument("--echo-status", type=int, default=401)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    server = FaultServer(
        rate=args.rate,
        kinds=args.kinds.split(","),
        seed=args.seed,
        hang_s=args.hang_s,
        delay_s=args.delay_s,
        tool_calls=args.tool_calls,
        echo_status=args.echo_status,
        port=args.port,
    )
    print(json.dumps({"base_url": server.base_url}), flush=True)
    try:
        server._httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._stopping.set()
        server._httpd.server_close()


if __name__ == "__main__":
    main()

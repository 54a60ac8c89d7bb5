"""A minimal, fast OpenAI-compatible chat-completions server on 127.0.0.1 for benchmarks.

Plain asyncio (one coroutine per keep-alive connection, one write per reply), so a single
process serves thousands of requests per second and never becomes the bottleneck of the
runner benchmark. Every reply takes ``--delay-s`` seconds (asyncio.sleep, so replies overlap).

Answers are built by tests/support/openai_replies.py, as in tests/support/fault_server.py's
``tool_calls`` mode: a request with tools and no tool result yet gets a ``calculate`` tool call;
anything else gets ``"<model> answer: <digest of the last user message>"``.

    python -m benchmarks chat_server --delay-s 0.2
    # prints {"base_url": "http://127.0.0.1:PORT/v1"} on its first stdout line
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
from typing import Any

from benchmarks.common import ROOT, module_command
from tests.support.openai_replies import (
    assistant_choice,
    chat_completion,
    digest,
    first_tool_call,
    has_tool_result,
    tool_names,
)
from tests.support.server_process import ServerProcess


def completion(request: dict[str, Any]) -> dict[str, Any]:
    """The chat completion answering ``request``."""
    model = str(request.get("model", "model"))
    messages = [m for m in request.get("messages") or [] if isinstance(m, dict)]
    users = [str(m.get("content") or "") for m in messages if m.get("role") == "user"]
    last = users[-1] if users else ""
    tools = tool_names(request)
    call = first_tool_call(tools, last) if tools and not has_tool_result(messages) else None
    return chat_completion(
        f"chatcmpl-{digest(last)}",
        model,
        [assistant_choice(f"{model} answer: {digest(last)}", call)],
        [str(m.get("content") or "") for m in messages],
    )


def _response(status: int, body: bytes) -> bytes:
    head = (
        f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: keep-alive\r\n\r\n"
    )
    return head.encode() + body


class ChatServer:
    """Serves chat completions after ``delay_s`` seconds each; counts what it answered."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s
        self.requests = 0
        self.connections = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One keep-alive connection: requests in, replies out, until the client closes."""
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path = lines[0].split(" ")[:2]
                headers = {
                    k.strip().lower(): v.strip()
                    for k, _, v in (line.partition(":") for line in lines[1:] if line)
                }
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                writer.write(await self.route(method, path, body))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def route(self, method: str, path: str, body: bytes) -> bytes:
        """The full HTTP response for one request."""
        if method == "GET" and path.rstrip("/") == "/_stats":
            return _response(
                200,
                json.dumps({"requests": self.requests, "connections": self.connections}).encode(),
            )
        if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
            return _response(404, b'{"error": {"message": "no such route"}}')
        self.requests += 1
        reply = json.dumps(completion(json.loads(body))).encode()
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        return _response(200, reply)

    async def serve(self, port: int = 0) -> None:
        """Listen on 127.0.0.1 and print the base URL as JSON; serve forever."""
        server = await asyncio.start_server(self.handle, "127.0.0.1", port, backlog=1024)
        port = server.sockets[0].getsockname()[1]
        print(json.dumps({"base_url": f"http://127.0.0.1:{port}/v1"}), flush=True)
        async with server:
            await server.serve_forever()


class ChatServerProcess(ServerProcess):
    """The server in a child process; a context manager with ``base_url``."""

    def __init__(self, delay_s: float = 0.0) -> None:
        args = module_command("benchmarks.chat_server", "--delay-s", str(delay_s))
        super().__init__(args, name="chat server", cwd=ROOT)

    def stats(self) -> dict[str, int]:
        """``requests`` answered and ``connections`` accepted so far."""
        import urllib.request

        with urllib.request.urlopen(
            self.base_url.removesuffix("/v1") + "/_stats", timeout=10
        ) as reply:
            return {k: int(v) for k, v in json.loads(reply.read()).items()}

    def requests(self) -> int:
        """Chat requests answered so far."""
        return self.stats()["requests"]


def main(argv: list[str] | None = None) -> None:
    """Serve on 127.0.0.1 until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay-s", type=float, default=0.0)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(ChatServer(args.delay_s).serve(args.port))


if __name__ == "__main__":
    main()

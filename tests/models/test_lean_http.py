"""ProbedBackend: the pool still drops a keep-alive connection the server closed, and its
streams answer the readability probe from the socket kept at connect time."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator

import pytest

from arena.models import ModelConfig
from arena.models.lean_http import ProbedStream
from arena.models.providers.openai import http_clients

pytestmark = pytest.mark.system

REPLY = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"


@pytest.fixture
def closing_server() -> Iterator[tuple[str, list[int]]]:
    """A server on 127.0.0.1 that answers one request per connection, then closes it without
    saying so (no ``Connection: close``): a keep-alive connection the server dropped."""
    listener = socket.create_server(("127.0.0.1", 0))
    connections: list[int] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                connections.append(1)
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                conn.sendall(REPLY)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/", connections
    listener.close()


def test_a_connection_the_server_closed_is_not_reused(
    closing_server: tuple[str, list[int]],
) -> None:
    url, connections = closing_server
    client = http_clients(ModelConfig(spec="openai:probe", base_url=url))["http_async_client"]

    async def three() -> list[str]:
        texts = []
        for _ in range(3):
            response = await client.get(url)
            texts.append(response.text)
            await asyncio.sleep(0.05)  # the server's close reaches this side
            streams = [c._connection._network_stream for c in client._transport._pool._connections]
            assert all(isinstance(s, ProbedStream) for s in streams)
            assert all(s.get_extra_info("is_readable") for s in streams)  # EOF is readable
        await client.aclose()
        return texts

    assert asyncio.run(three()) == ["ok", "ok", "ok"]
    assert len(connections) == 3  # each request found the old connection dropped

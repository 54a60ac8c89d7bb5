"""A cheaper keep-alive check for the model clients' connection pool (httpx2/httpcore2).

Before and after every request the pool checks each idle connection for a server-side close
(``get_extra_info("is_readable")``). On the default anyio streams that check first rebuilds the
stream's table of attributes, which asks the kernel for the peer's address, so at 32 idle
connections it cost several hundred system calls per model call. :class:`ProbedBackend` wraps
the default backend and answers that one question from the socket it kept at connect time,
with the same readability probe; every other call goes to the wrapped stream unchanged.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable
from typing import Any

import httpcore2
from httpcore2._utils import is_socket_readable


class ProbedStream(httpcore2.AsyncNetworkStream):
    """A network stream whose ``is_readable`` probe uses the socket kept at connect time."""

    def __init__(self, stream: httpcore2.AsyncNetworkStream) -> None:
        self._stream = stream
        self._socket: socket.socket | None = stream.get_extra_info("socket")

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._stream.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._stream.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def start_tls(self, *args: Any, **kwargs: Any) -> httpcore2.AsyncNetworkStream:
        return await self._stream.start_tls(*args, **kwargs)  # TLS streams: no shortcut

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable" and self._socket is not None:
            return is_socket_readable(self._socket)
        return self._stream.get_extra_info(info)


class ProbedBackend(httpcore2.AsyncNetworkBackend):
    """The default network backend, its TCP streams wrapped in :class:`ProbedStream`."""

    def __init__(self, backend: httpcore2.AsyncNetworkBackend) -> None:
        self._backend = backend

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        stream = await self._backend.connect_tcp(
            host, port, timeout=timeout, local_address=local_address, socket_options=socket_options
        )
        return ProbedStream(stream)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore2.AsyncNetworkStream:
        return await self._backend.connect_unix_socket(
            path, timeout=timeout, socket_options=socket_options
        )

    async def sleep(self, seconds: float) -> None:
        await self._backend.sleep(seconds)


def probe_cheaply(client: Any) -> Any:
    """``client`` (an ``httpx2.AsyncClient``) with its direct connection pool's streams
    wrapped in :class:`ProbedStream`; a client of another shape (a proxy, a newer httpx2) is
    returned untouched."""
    pool = getattr(getattr(client, "_transport", None), "_pool", None)
    backend = getattr(pool, "_network_backend", None)
    if isinstance(pool, httpcore2.AsyncConnectionPool) and backend is not None:
        pool._network_backend = ProbedBackend(backend)
    return client

"""What an MCP client sees when its host dies behind a load balancer (docs/SCALING.md, "Several hosts and executors"):
two real hosts over streamable HTTP, a TCP forwarder standing for the balancer, and the official
SDK client. The session's next call reaches the other host, which does not know it: the call
fails with "Session not found" (an HTTP 404 with that JSON-RPC error), and a new session through the same address
works on the host that is left."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from host_tests.host_helpers import AppServer, ServedHost, serve_host

pytestmark = pytest.mark.browser


class Forwarder:
    """Every new TCP connection goes to `upstream` as it is at that moment."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._pipe_both, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _pipe_both(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.close()
            return
        # Ended with the test's event loop: a connection still open then is simply dropped
        # (asyncio's server callback would otherwise report the cancellation as an error).
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


@contextlib.asynccontextmanager
async def _client(base: str) -> AsyncIterator[Client]:
    """The official SDK client over streamable HTTP at `base`."""
    async with (
        httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=120)) as http,
        Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
    ):
        yield client


def _address(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def test_a_session_whose_host_died_is_terminated_and_a_new_one_works(app: AppServer) -> None:
    first, second = serve_host(), serve_host()
    try:
        asyncio.run(_scenario(first, second, app))
    finally:
        first.stop()
        second.stop()


async def _scenario(first: ServedHost, second: ServedHost, app: AppServer) -> None:
    balancer = Forwarder(_address(first.base))
    base = await balancer.start()
    try:
        async with _client(base) as client:
            done = await client.call_tool("browser_navigate", {"url": app.url("/page")})
            assert not done.is_error
            assert first.stop() == 0  # the host dies; the balancer now sends to the other
            balancer.upstream = _address(second.base)
            with pytest.raises(MCPError, match=r"^Session not found$"):
                await client.call_tool("browser_navigate", {"url": app.url("/page")})
        async with _client(base) as client:
            done = await client.call_tool("browser_navigate", {"url": app.url("/page")})
            assert not done.is_error, done
    finally:
        await balancer.stop()

"""The executor's URL policy where requests are made: a forward proxy the browser must use.

With an origin allow-list, the service launches its browser with this proxy for every request,
loopback included (Playwright forces `<-loopback>`). Every request the browser makes, the first
navigation, each hop of a redirect, subresources, workers, WebSockets, reaches the proxy first
and goes on only if its origin is allowed and it does not lead to the service's own port on this
machine. Plain HTTP requests are forwarded one per connection (`Connection: close` both ways, so
the browser cannot send a second request down a connection already checked); HTTPS and
WebSockets are tunnelled (`CONNECT host:port`, checked as the origin `https://host:port` or
`http://host:port`). A refused request gets 403 and never leaves the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from urllib.parse import urlsplit

from host.executor.urlpolicy import UrlPolicy, origin_of
from host.sessions.selfguard import SelfGuard

log = logging.getLogger("host.executor")

HEAD_LIMIT = 64 * 1024
HEAD_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 10.0
_HOP_HEADERS = frozenset(
    {b"connection", b"proxy-connection", b"proxy-authorization", b"keep-alive", b"te", b"upgrade"}
)


class OriginProxy:
    """A forward HTTP proxy on 127.0.0.1 that lets requests through only to allowed origins.

    Guarantees: a request reaches its server only if `policy.allows` its origin and it does not
    target one of `guard`'s ports on this machine (the name is resolved once, and the connection
    made to that address); anything else, and anything it cannot parse, is answered 403 or 400
    and closed. `refused` counts refusals. A slow or silent client is dropped after 30 s.
    """

    def __init__(self, policy: UrlPolicy, guard: SelfGuard) -> None:
        self.policy = policy
        self.guard = guard
        self.refused = 0
        self.port = 0
        self._server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0, limit=HEAD_LIMIT)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(HEAD_TIMEOUT_S):
                head = await reader.readuntil(b"\r\n\r\n")
            await self._serve(head, reader, writer)
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _serve(
        self, head: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        line, _, rest = head.partition(b"\r\n")
        parts = line.split(b" ")
        if len(parts) != 3:
            await _answer(writer, 400, "a proxy request line is METHOD TARGET VERSION")
            return
        method, target, version = parts
        if method == b"CONNECT":
            host, _, port_text = target.decode("latin-1").rpartition(":")
            host = host.strip("[]")
            if not host or not port_text.isdigit():
                await _answer(writer, 400, "CONNECT needs host:port")
                return
            port = int(port_text)
            scheme = "http" if port == 80 else "https"
            address = await self._address(f"{scheme}://{_shown_host(host)}:{port}", host, port)
            if address is None:
                await _answer(writer, 403, "the executor's URL policy refuses this origin")
                return
            upstream_reader, upstream_writer = await _connect(address, port)
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await writer.drain()
            await _pipe(reader, writer, upstream_reader, upstream_writer)
            return
        url = target.decode("latin-1")
        try:
            split = urlsplit(url)
            port = split.port or (443 if split.scheme == "https" else 80)
        except ValueError:
            await _answer(writer, 400, "the request target is not an absolute URL")
            return
        if split.scheme != "http" or not split.hostname:
            await _answer(writer, 400, "a proxy request names an absolute http: URL")
            return
        address = await self._address(url, split.hostname, port)
        if address is None:
            await _answer(writer, 403, "the executor's URL policy refuses this origin")
            return
        path = split.path or "/"
        if split.query:
            path += "?" + split.query
        headers = [
            h
            for h in rest.split(b"\r\n")
            if h and h.split(b":", 1)[0].strip().lower() not in _HOP_HEADERS
        ]
        forwarded = b"\r\n".join(
            [
                method + b" " + path.encode("latin-1") + b" " + version,
                *headers,
                b"Connection: close",
            ]
        )
        upstream_reader, upstream_writer = await _connect(address, port)
        upstream_writer.write(forwarded + b"\r\n\r\n")
        await upstream_writer.drain()
        await _pipe(reader, writer, upstream_reader, upstream_writer, close_response=True)

    async def _address(self, url: str, host: str, port: int) -> str | None:
        """The address to connect to for `url`, or None if the policy refuses it."""
        origin = origin_of(url)
        if origin is None or not self.policy.allows(url):
            self.refused += 1
            log.info("proxy refused a request to %s", origin or "a malformed URL")
            return None
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM
            )
        except OSError:
            return host  # let the connection fail as it would without a proxy
        address = str(infos[0][4][0])
        guarded = port in self.guard.ports
        if guarded and await self.guard.is_local(address):
            self.refused += 1
            log.info("proxy refused a request to the service's own port")
            return None
        return address


def _shown_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


async def _connect(address: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    async with asyncio.timeout(CONNECT_TIMEOUT_S):
        return await asyncio.open_connection(address, port)


async def _answer(writer: asyncio.StreamWriter, status: int, message: str) -> None:
    reason = {400: "Bad Request", 403: "Forbidden"}[status]
    body = message.encode()
    writer.write(
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode()
        + body
    )
    with contextlib.suppress(ConnectionError, OSError):
        await writer.drain()


async def _pipe(
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
    upstream_reader: asyncio.StreamReader,
    upstream_writer: asyncio.StreamWriter,
    *,
    close_response: bool = False,
) -> None:
    """Copy bytes both ways until either side closes; with `close_response`, the response's head
    is given `Connection: close` so the browser opens a new (checked) connection next time."""

    async def copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter, head: bool) -> None:
        try:
            if head:
                response_head = await source.readuntil(b"\r\n\r\n")
                lines = [
                    h
                    for h in response_head[:-4].split(b"\r\n")
                    if h.split(b":", 1)[0].strip().lower() not in (b"connection", b"keep-alive")
                ]
                sink.write(b"\r\n".join([*lines, b"Connection: close"]) + b"\r\n\r\n")
            while chunk := await source.read(65536):
                sink.write(chunk)
                await sink.drain()
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            with contextlib.suppress(Exception):
                sink.close()

    upload = asyncio.ensure_future(copy(client_reader, upstream_writer, False))
    download = asyncio.ensure_future(copy(upstream_reader, client_writer, close_response))
    try:
        await asyncio.wait({upload, download}, return_when=asyncio.FIRST_COMPLETED)
        if download.done():
            upload.cancel()
        await asyncio.wait({upload, download})
    finally:
        for task in (upload, download):
            task.cancel()
        upstream_writer.close()

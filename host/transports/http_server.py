"""The HTTP server under the host and the executor: uvicorn, with the limits a public socket needs.

uvicorn alone waits forever for a request's headers (one byte a minute keeps a connection open),
reads a body for as long as the client sends it, and accepts connections until the process runs
out of file descriptors. `GuardedH11Protocol` adds what is missing: a request's headers must
arrive within `header_timeout` and its body within `body_timeout` (else 408 and the connection
closes), and past `max_connections` a new connection first evicts the oldest one that has not
sent a whole request yet, and is answered 503 (with `Retry-After`) if there is none. `BodyGuard`
refuses a body over its size (413) or nested too deep to parse safely (400) before any parser or
route sees it. Together: no input makes the server answer 500, hang, or run out of descriptors.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import socket
from collections.abc import Callable
from typing import Any

import h11
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from host.settings.config import LOOPBACK_HOSTS
from host.settings.limits import HttpLimits, json_depth
from host.transports.request_ids import WINDOW, recover_id

log = logging.getLogger(__name__)

LINGER_S = 2.0
"""How long a connection closed with a 408 keeps reading (and dropping) what the client sends."""
_FD_RESERVE = 256
"""Descriptors kept free for the driver's pipes, files and outgoing sockets."""


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit; return the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if wanted > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return soft


def effective_connections(limits: HttpLimits) -> int:
    """`max_connections`, lowered if the descriptor limit would not leave room for it."""
    soft = raise_descriptor_limit()
    return max(8, min(limits.max_connections, soft - _FD_RESERVE))


def _raw_response(status: int, reason: str, message: str, extra: str = "") -> bytes:
    body = json.dumps({"error": {"code": reason.lower().replace(" ", "_"), "message": message}})
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n{extra}\r\n{body}"
    ).encode()


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with header and body time limits and a connection limit.

    The limits come from the uvicorn `Config`'s `guard_limits` attribute (an `HttpLimits`).
    """

    def __init__(self, config: Any, server_state: Any, app_state: Any, _loop: Any = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        limits: HttpLimits = getattr(config, "guard_limits", HttpLimits())
        self.limits = limits
        self.capacity: int = getattr(config, "guard_capacity", limits.max_connections)
        self._refused = False
        self._lingering: asyncio.TimerHandle | None = None
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._since = 0.0

    # -- connections ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.capacity and not self._evict_one():
            self._refused = True
            transport.write(
                _raw_response(
                    503,
                    "Service Unavailable",
                    "the server holds as many connections as it may; retry shortly",
                    "retry-after: 1\r\n",
                )
            )
            transport.close()
            return
        super().connection_made(transport)
        self._since = self.loop.time()
        self._arm_headers()

    def _evict_one(self) -> bool:
        """Close the oldest connection still waiting for its request's headers, if any."""
        waiting = [
            c
            for c in self.connections
            if isinstance(c, GuardedH11Protocol) and c._waiting_for_headers()
        ]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda c: c._since)
        # At once, without a lingering close: an eviction frees a descriptor for a newcomer.
        oldest._close(408, "Request Timeout", "the request did not arrive in time", linger=False)
        self.connections.discard(oldest)
        return True

    def _waiting_for_headers(self) -> bool:
        return (
            self.transport is not None
            and self._lingering is None
            and not self.transport.is_closing()
            and self.conn.their_state is h11.IDLE
            and (self.cycle is None or self.cycle.response_complete)
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._lingering is not None:
            self._lingering.cancel()
        if self._refused:
            return
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering is not None:
            return  # closing: what the client still sends is read and dropped
        super().data_received(data)
        self._follow_state()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._since = self.loop.time()
        self._follow_state()

    # -- timers ----------------------------------------------------------------------------

    def _follow_state(self) -> None:
        if self.transport is None or self.transport.is_closing():
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            self._arm_headers()
        else:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None
            if state is h11.SEND_BODY and self._body_timer is None:
                self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_late)
            elif state is not h11.SEND_BODY and self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

    def _arm_headers(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(
                self.limits.header_timeout, self._headers_late
            )

    def _disarm(self) -> None:
        for timer in (self._header_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._header_timer = self._body_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self._waiting_for_headers():
            if self.conn.their_state is h11.IDLE and not self._received_any():
                self._close(None)  # an idle keep-alive connection: closed without a word
            else:
                self._close(
                    408,
                    "Request Timeout",
                    f"the request's headers did not arrive within {self.limits.header_timeout:g} s",
                )

    def _received_any(self) -> bool:
        return bool(getattr(self.conn, "trailing_data", (b"",))[0])

    def _body_late(self) -> None:
        self._body_timer = None
        if self.conn.their_state is h11.SEND_BODY:
            started = self.cycle is not None and self.cycle.response_started
            self._close(
                None if started else 408,
                "Request Timeout",
                f"the request's body did not arrive within {self.limits.body_timeout:g} s",
            )

    def _close(
        self, status: int | None, reason: str = "", message: str = "", *, linger: bool = True
    ) -> None:
        self._disarm()
        if self.transport is None or self.transport.is_closing() or self._lingering is not None:
            return
        if status is not None:
            self.transport.write(_raw_response(status, reason, message))
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        if status is None or not linger or not self.transport.can_write_eof():
            self.transport.close()
            return
        # A lingering close: the response is sent and our side half-closed, and what the client
        # is still sending is read and dropped for a moment before the socket closes. Closing at
        # once, with its bytes unread, would send a reset that can destroy the 408 in flight.
        self.transport.write_eof()
        self._lingering = self.loop.call_later(LINGER_S, self.transport.close)


Refusal = Callable[[int, str, str], bytes]
"""Builds a refusal's JSON body from (status, code, message)."""


def host_refusal(status: int, code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


class BodyGuard:
    """Reads a request's body before the app does, refusing it if it is too large (413) or a JSON
    text nested deeper than `max_depth` (400); otherwise hands the app the same bytes.

    Guarantees: nothing of a refused body is kept beyond the limit (on `jsonrpc_paths`, its first
    and last `WINDOW` bytes, read through to its end, up to `DRAIN_FACTOR` times the limit); a
    `Content-Length` over the limit elsewhere is refused before any of the body is read; the
    refusal is a JSON body built by `refusal`, or on `jsonrpc_paths` a JSON-RPC error under the
    request's own id (host/transports/request_ids.py; `null` only when it cannot be read), never a 500.
    """

    DRAIN_FACTOR = 8

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        max_depth: int,
        refusal: Refusal = host_refusal,
        *,
        jsonrpc_paths: frozenset[str] = frozenset(),
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth
        self.refusal = refusal
        self.jsonrpc_paths = jsonrpc_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        jsonrpc = scope.get("path") in self.jsonrpc_paths
        declared = dict(scope.get("headers") or []).get(b"content-length")
        over = (
            declared is not None and declared.strip().isdigit() and int(declared) > self.max_bytes
        )
        if over and not jsonrpc:
            await self._refuse(send, 413, "payload_too_large", self._too_large())
            return
        chunks: list[bytes] = []
        size = 0
        head = tail = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body = message.get("body", b"")
            more = message.get("more_body", False)
            size += len(body)
            if size > self.max_bytes:
                if not jsonrpc:
                    await self._refuse(send, 413, "payload_too_large", self._too_large())
                    return
                if chunks:
                    pending = b"".join(chunks)
                    head, tail, chunks = pending[:WINDOW], pending[-WINDOW:], []
                if not head:
                    head = body[:WINDOW]
                tail = (tail + body[-WINDOW:])[-WINDOW:]
                if more and size <= self.DRAIN_FACTOR * self.max_bytes:
                    continue
                found = recover_id(head, tail if not more else b"")
                await self._refuse(
                    send,
                    413,
                    "payload_too_large",
                    self._too_large(),
                    request_id=found,
                    jsonrpc=True,
                )
                return
            chunks.append(body)
            if not more:
                break
        data = b"".join(chunks)
        if data[:64].lstrip()[:1] in (b"{", b"[") and json_depth(data) > self.max_depth:
            await self._refuse(
                send,
                400,
                "too_deep",
                f"the body nests more than {self.max_depth} levels deep; send a flatter request",
                request_id=recover_id(data) if jsonrpc else None,
                jsonrpc=jsonrpc,
            )
            return
        replay: list[Message] = [{"type": "http.request", "body": data, "more_body": False}]

        async def replayed() -> Message:
            return replay.pop() if replay else await receive()

        await self.app(scope, replayed, send)

    def _too_large(self) -> str:
        return f"the request body is larger than {self.max_bytes} bytes"

    async def _refuse(
        self,
        send: Send,
        status: int,
        code: str,
        message: str,
        *,
        request_id: int | str | None = None,
        jsonrpc: bool = False,
    ) -> None:
        body = (
            jsonrpc_error(request_id, message) if jsonrpc else self.refusal(status, code, message)
        )
        # No `connection: close`: uvicorn then reads (and drops) the rest of the body, within the
        # body time limit, so a client still sending it is not cut off mid-write.
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def jsonrpc_error(request_id: int | str | None, message: str, code: int = -32600) -> bytes:
    """A JSON-RPC error response body (`Invalid Request` unless told)."""
    return json.dumps(
        {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    ).encode()


class ListenRefused(ValueError):
    """Why an HTTP server was not started, as a line for its command's standard error."""


def guarded_listener(host: str, port: int, token: str | None, token_env: str) -> socket.socket:
    """`listening_socket(host, port)` for a server that requires a bearer token off loopback:
    raises `ListenRefused` for a non-loopback `host` without `token` (naming `token_env` and
    `--token-file` as the fix) and for an address that cannot be listened on."""
    if host not in LOOPBACK_HOSTS and not token:
        raise ListenRefused(
            f"binding to {host} (not loopback) needs a bearer token: set {token_env} or pass "
            "--token-file"
        )
    try:
        return listening_socket(host, port)
    except OSError as error:
        raise ListenRefused(f"cannot listen on {host}:{port}: {error.strerror}") from None


def listening_socket(host: str, port: int, backlog: int = 512) -> socket.socket:
    """A bound, listening, non-blocking TCP socket (IPPROTO_TCP: asyncio then sets TCP_NODELAY on
    every accepted connection, so a response's head and body are not held 40 ms apart)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(backlog)
    sock.setblocking(False)
    return sock


def uvicorn_server(app: ASGIApp, limits: HttpLimits, **options: Any) -> Any:
    """A uvicorn `Server` for `app` speaking `GuardedH11Protocol` with `limits`."""
    import uvicorn

    config = uvicorn.Config(
        app,
        http=GuardedH11Protocol,
        lifespan="on",
        timeout_graceful_shutdown=5,
        timeout_keep_alive=5,
        access_log=False,
        **options,
    )
    config.guard_limits = limits  # type: ignore[attr-defined]
    config.guard_capacity = effective_connections(limits)  # type: ignore[attr-defined]
    return uvicorn.Server(config)

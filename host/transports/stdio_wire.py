"""The stdio wire: the pipes read and written through the event loop, one bounded line at a time
(a line too long is skipped whole and reported as a `Skipped`), and the JSON-RPC errors a line
that cannot be passed on is answered with. Below both the stdio loop (host/transports/stdio.py) and the
early answers (host/transports/early_answers.py), which read lines from it before the SDK is loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import stat
from collections.abc import AsyncIterator
from typing import Any

from host.settings.limits import json_depth
from host.transports.request_ids import MAX_ID_CHARS, WINDOW, recover_id

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800
"""A request the host gave up at exit (the code LSP uses for a cancelled request)."""


class StdioWire:
    """The protocol's two byte streams, on private duplicates of fds 0 and 1.

    Guarantees: `lines()` yields complete lines of at most `max_line` bytes (a longer line is
    skipped whole and reported as a `Skipped`, which keeps only its two ends), ending at EOF; `write` sends bytes in order and raises
    `BrokenPipeError` once the reader is gone; a write that the client is slow to read waits for
    it without blocking the event loop; `close` restores fds 0 and 1.
    """

    def __init__(self, max_line: int) -> None:
        self.max_line = max_line
        self._in = os.dup(0)
        self._out = os.dup(1)
        self._saved = (os.dup(0), os.dup(1))
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        self._writer: asyncio.StreamWriter | None = None
        self._blocking_out = False

    def close(self) -> None:
        for fd, saved in zip((0, 1), self._saved, strict=True):
            with contextlib.suppress(OSError):
                os.dup2(saved, fd)
            with contextlib.suppress(OSError):
                os.close(saved)
        if self._writer is not None:
            self._writer.close()
        else:
            with contextlib.suppress(OSError):
                os.close(self._out)

    async def _chunks(self) -> AsyncIterator[bytes]:
        loop = asyncio.get_running_loop()
        mode = os.fstat(self._in).st_mode
        if (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)) and _pollable(
            self._in
        ):
            reader = asyncio.StreamReader(limit=1 << 16)
            await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(self._in, "rb", 0)
            )
            while chunk := await reader.read(1 << 16):
                yield chunk
            return
        # A regular file (a recorded session replayed into the host) or a device the event loop
        # cannot watch (`/dev/null`): reads never block long.
        while chunk := os.read(self._in, 1 << 16):
            yield chunk
            await asyncio.sleep(0)

    async def lines(self) -> AsyncIterator[bytes | Skipped]:
        buffer = bytearray()
        skipped: Skipped | None = None
        async for chunk in self._chunks():
            buffer += chunk
            while True:
                end = buffer.find(b"\n")
                if end < 0:
                    if skipped is not None:
                        skipped.add(buffer)
                        buffer.clear()
                    elif len(buffer) > self.max_line:
                        skipped = Skipped(bytes(buffer[:WINDOW]), b"", 0)
                        skipped.add(buffer)
                        buffer.clear()
                    break
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                if skipped is not None:
                    skipped.add(line)
                    yield skipped
                    skipped = None
                elif len(line) > self.max_line:
                    yield Skipped(line[:WINDOW], line[-WINDOW:], len(line))
                elif line.strip():
                    yield line
        if skipped is not None:
            skipped.add(buffer)
            yield skipped
        elif buffer.strip():
            line = bytes(buffer)
            if len(line) <= self.max_line:
                yield line
            else:
                yield Skipped(line[:WINDOW], line[-WINDOW:], len(line))

    async def write(self, data: bytes) -> None:
        if self._writer is None and not self._blocking_out:
            mode = os.fstat(self._out).st_mode
            if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode):
                loop = asyncio.get_running_loop()
                transport, protocol = await loop.connect_write_pipe(
                    _FlowControl, os.fdopen(self._out, "wb", 0)
                )
                self._writer = asyncio.StreamWriter(transport, protocol, None, loop)
            else:
                self._blocking_out = True
        if self._writer is not None:
            if self._writer.is_closing():
                raise BrokenPipeError("the client closed its end of stdout")
            self._writer.write(data)
            try:
                await self._writer.drain()
            except ConnectionError as error:
                raise BrokenPipeError(str(error)) from None
            return
        view = memoryview(data)
        while view:
            written = os.write(self._out, view)
            view = view[written:]


class Skipped:
    """A line longer than the limit, skipped: only its first and last `WINDOW` bytes are kept
    (where its request id is found, see host/transports/request_ids.py) and its length."""

    def __init__(self, head: bytes, tail: bytes, size: int) -> None:
        self.head = head
        self.tail = tail
        self.size = size

    def add(self, data: bytes | bytearray) -> None:
        """Count `data` (the line's next bytes), keeping the last `WINDOW` bytes seen."""
        self.size += len(data)
        self.tail = (self.tail + bytes(data[-WINDOW:]))[-WINDOW:]

    def request_id(self) -> int | str | None:
        return recover_id(self.head, self.tail)


class _FlowControl(asyncio.streams.FlowControlMixin, asyncio.Protocol):
    """A write pipe's protocol with `drain` support (what asyncio's StreamWriter needs)."""

    def __init__(self) -> None:
        super().__init__()
        self._closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def _get_close_waiter(self, stream: Any) -> asyncio.Future[None]:
        return self._closed

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if not self._closed.done():
            self._closed.set_result(None)


def _pollable(fd: int) -> bool:
    """Whether the event loop can watch `fd` (epoll refuses some devices, `/dev/null` among
    them, and the loop would only say so in a callback's traceback)."""
    if not hasattr(select, "epoll"):
        return True
    poller = select.epoll()
    try:
        poller.register(fd, select.EPOLLIN)
    except PermissionError:
        return False
    finally:
        poller.close()
    return True


def error_line(request_id: Any, code: int, message: str) -> bytes:
    """A JSON-RPC error response, as one line."""
    body = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return (json.dumps(body, ensure_ascii=True) + "\n").encode("ascii")


def _request_id(line: bytes) -> Any:
    """The id of a request the SDK could not parse: read whole by Python's more lenient parser
    if the line is shallow enough, else recovered from the line's two ends."""
    if json_depth(line) <= 512:
        with contextlib.suppress(ValueError, RecursionError):
            message = json.loads(line)
            if isinstance(message, dict) and isinstance(message.get("id"), int | str):
                request_id = message["id"]
                if not isinstance(request_id, bool) and (
                    not isinstance(request_id, str) or len(request_id) <= MAX_ID_CHARS
                ):
                    return request_id
            return None
    return recover_id(line)


def _refusal(line: bytes, max_depth: int) -> tuple[int, str] | None:
    """Why a line cannot be passed on to the server, or None."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as error:
        return PARSE_ERROR, f"the message is not UTF-8 (byte {error.start})"
    if json_depth(line) > max_depth:
        return INVALID_REQUEST, f"the message nests more than {max_depth} levels deep"
    return None


def _parse_failure(error: Exception) -> str:
    text = str(error)
    if "hex escape" in text or "surrogate" in text:
        return "the message is not valid JSON text: it holds a lone surrogate escape (\\ud800)"
    first = text.splitlines()[1].strip() if len(text.splitlines()) > 1 else text
    return f"the message is not a valid JSON-RPC message ({first[:300]})"

"""MCP over standard input and output: one JSON-RPC message per line, bounded, always answered.

The SDK's own stdio transport reads stdin in a worker thread that a signal cannot interrupt, gives
up silently on a line it cannot parse (a client waits forever for that answer), and imports the
SDK's HTTP stack. This one reads and writes the pipes through the event loop, so SIGTERM and
SIGINT end the host at once whatever the client does; answers every request it cannot pass on
(too long, not UTF-8, nested too deep, not JSON-RPC) with a JSON-RPC error that carries the
request's id when one can be read; at the end of stdin answers every request still in flight
(its result within `EOF_GRACE_S`, else a `cancelled` error); and reports a client that closed
its end (stdin at EOF, stdout closed) so the host can stop quietly.

While it runs, file descriptors 0 and 1 point at /dev/null and stderr, so a stray `print` or a
child process cannot write into the protocol stream; the wire uses private duplicates.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

from host.transports.stdio_wire import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    REQUEST_CANCELLED,
    Skipped,
    StdioWire,
    _parse_failure,
    _refusal,
    _request_id,
    error_line,
)

if TYPE_CHECKING:
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.shared.message import SessionMessage

    from host.transports.early_answers import EarlyResponder
# The SDK is imported by `serve_wire`, not here: the wire is set up before the SDK is loaded.

log = logging.getLogger(__name__)

EOF_GRACE_S = 10.0
"""How long calls still running at the end of stdin may take to finish before the host answers
them `cancelled` and exits."""
_CANCELLED_AT_EOF = (
    "cancelled: the client closed stdin and the host is exiting; the call did not finish "
    f"within {EOF_GRACE_S:g} s of it"
)


def cancelled_at_eof(request_id: object) -> bytes:
    """The answer of a request still running `EOF_GRACE_S` after the end of stdin."""
    return error_line(request_id, REQUEST_CANCELLED, _CANCELLED_AT_EOF)


async def serve_wire(
    wire: StdioWire,
    read_send: MemoryObjectSendStream[SessionMessage | Exception],
    write_receive: MemoryObjectReceiveStream[SessionMessage],
    *,
    max_depth: int,
    on_gone: Callable[[str], None],
    early: EarlyResponder | None = None,
) -> None:
    """Move messages between the wire and the server's streams until the client is gone.

    With `early` (see host/transports/early_answers.py), the lines come from it, after the replay of what
    it answered; the SDK's answer to a replayed request is not sent, and the SDK's answers it
    can keep are kept."""
    import anyio
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    from host.transports.early_answers import Waiting

    pending: set[int | str] = set()
    """Ids of requests passed to the SDK and not answered yet (each is answered before exit)."""
    settled = asyncio.Event()
    """Set while `pending` is empty."""
    settled.set()
    dropped: set[int | str] = set()
    """Ids answered `cancelled` at the end of stdin: the SDK's late answer is not sent."""
    replayed: dict[int | str, asyncio.Event] = {}
    """Ids of replayed requests (answered early): their answers are not sent."""
    captures: dict[int | str, str | None] = {}
    """Ids of requests whose answer is kept, and its key (None: an id used twice, not kept)."""

    async def write(data: bytes) -> None:
        try:
            await wire.write(data)
        except (BrokenPipeError, ConnectionError, OSError):
            on_gone("the client closed stdout")
            raise

    async def incoming() -> AsyncIterator[Waiting]:
        if early is None:
            async for line in wire.lines():
                yield Waiting(line)
            return
        replay = await early.handover()
        if replay is not None:
            for line in (replay.initialize, *replay.notifications):
                try:
                    message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                except ValueError:  # read as the SDK reads it when answered early: not expected
                    log.warning("a message answered early does not parse: %r", line[:200])
                    continue
                if line is replay.initialize:
                    answered = replayed[replay.request_id] = asyncio.Event()
                    await read_send.send(SessionMessage(message))
                    await answered.wait()
                else:
                    await read_send.send(SessionMessage(message))
        if early.gone is not None:
            on_gone(early.gone)
        while (waiting := await early.next()) is not None:
            yield waiting

    async def read() -> None:
        async with read_send:
            async for waiting in incoming():
                line = waiting.line
                if isinstance(line, Skipped):
                    await write(
                        error_line(
                            line.request_id(),
                            INVALID_REQUEST,
                            f"the message is {line.size} bytes long, more than the "
                            f"{wire.max_line} accepted; it was skipped",
                        )
                    )
                    continue
                refusal = _refusal(line, max_depth)
                if refusal is None:
                    try:
                        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                    except ValueError as error:
                        refusal = PARSE_ERROR, _parse_failure(error)
                    else:
                        if isinstance(message, types.JSONRPCRequest):
                            if waiting.key is not None:
                                captures[message.id] = (
                                    None if message.id in captures else waiting.key
                                )
                            pending.add(message.id)
                            settled.clear()
                        await read_send.send(SessionMessage(message))
                        continue
                await write(error_line(_request_id(line), *refusal))
            # The end of stdin: every request the client sent is answered before the host exits,
            # by its result if it comes within EOF_GRACE_S, else by a `cancelled` error (those
            # answered before the SDK was loaded alike).
            ended = asyncio.get_running_loop().time()
            if early is not None:
                await early.drain(EOF_GRACE_S, cancelled_at_eof)
            left = EOF_GRACE_S - (asyncio.get_running_loop().time() - ended)
            with anyio.move_on_after(max(0.0, left)):
                await settled.wait()
            for request_id in sorted(pending, key=str):
                dropped.add(request_id)
                await write(
                    error_line(
                        request_id,
                        REQUEST_CANCELLED,
                        _CANCELLED_AT_EOF,
                    )
                )
            pending.clear()
        on_gone("the client closed stdin")

    async def send() -> None:
        async with write_receive:
            async for outgoing in write_receive:
                message = outgoing.message
                answers: int | str | None = None
                if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
                    answers = message.id
                if answers is not None and answers in replayed:
                    replayed.pop(answers).set()
                    continue
                if answers is not None:
                    if answers in dropped:
                        continue
                    pending.discard(answers)
                    if not pending:
                        settled.set()
                data = _encode(outgoing)
                await write(data)
                if answers is not None and answers in captures:
                    key = captures.pop(answers)
                    if key is not None and early is not None:
                        early.keep(key, answers, data)

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(read)
            group.start_soon(send)
    except* (BrokenPipeError, ConnectionError, OSError):
        pass


def _encode(outgoing: SessionMessage) -> bytes:
    message = outgoing.message
    try:
        text = message.model_dump_json(by_alias=True, exclude_unset=True)
    except ValueError:
        # Text the protocol cannot carry (a lone surrogate a page produced): escaped instead.
        data = message.model_dump(mode="python", by_alias=True, exclude_unset=True)
        try:
            text = json.dumps(data, ensure_ascii=True, default=str)
        except ValueError:
            request_id = getattr(message, "id", None)
            return error_line(request_id, INTERNAL_ERROR, "the answer could not be encoded")
    return (text + "\n").encode("utf-8", "backslashreplace")

"""Answers to a stdio client's first requests while the MCP SDK is still loading.

Importing the SDK (its pydantic models above all) takes most of a stdio host's start, yet what the
host answers to `initialize`, `tools/list` and `ping` is the same from one start to the next. So
the first time the SDK answers one of them, the answer's `result` is kept on disk; a later host
answers the same request from that copy, byte for byte what the SDK would send, before the SDK
is loaded.

The key of a kept answer covers everything that shapes it: the source of the host's top-level
modules (where the listing and `initialize` are made), the installed SDK and pydantic (their
`RECORD` files), Python's version, the host's whole configuration (its `repr`, which leaves the
token and the secrets out, and the secrets' names), every tool descriptor, toolset and alias,
the client's `initialize` params (its requested protocol version), whether
`notifications/initialized` came before the request, and the request's own method and params. A message answered early must be
plain (no duplicate keys, no NaN, an id of digits or of simple characters); anything else, and
anything after the first message that is not answered early, waits in order for the SDK.

Once the host is made (`answer_calls`), a `tools/call` is answered here too: the host runs it, and
its result is the one the SDK's server gives (both are made by `host/transports/call_results.py`),
written as the SDK writes it. So a stdio host's first call does not wait for the SDK, whose import
waits until something needs it (`sdk_wanted`; host/commands/serve.py) instead of sharing the two
cores with the browser's launch. Only a call in a session this module opened, after
`notifications/initialized`, whose params are a name and arguments alone, is answered here; a
call read before the host is made waits for it.

When the SDK is ready, `handover` gives back the client's `initialize` (and the
`notifications/initialized` that followed it) to replay into the SDK's server, so that its
session is the one the client opened; the SDK's answer to that replayed `initialize` is not sent
(the client has it). Then every line that waited is passed on in order, and the reader goes on
feeding the SDK. A request answered early is never passed on; one that is not is never answered
here.

The kept answers live beside the YAML cache (`$XDG_CACHE_HOME/playwright-tool-host/`), one file
each, written whole and atomically; each carries its key and a digest of its text: one that
cannot be read, does not parse, or whose digest does not match is no answer (the SDK answers,
and the file is written anew). The digest tells damage, not who wrote the file: an answer is
read only from a folder nobody else can write, and only from a regular file of this user's
that nobody else can write (`host.shared.cache_folder.read_private`); from any other, nothing
is read and nothing is written, as if there were no cache.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import re
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.shared.cache_folder import host_cache, read_private, write_private
from host.shared.jsontypes import JsonObject
from host.transports.stdio_wire import INTERNAL_ERROR, Skipped, StdioWire, _refusal, error_line

if TYPE_CHECKING:
    from host.calls.registry import ToolRegistry
    from host.settings.config import HostConfig

log = logging.getLogger(__name__)

FORMAT = 1
MAX_ENTRIES = 64
"""Kept answers (a listing is ~10-100 kB); past it, the oldest go."""
ANSWERED = frozenset({"tools/list", "ping"})
"""Requests answered early once `initialize` was (and `initialize` itself)."""
QUEUE_LINES = 4
"""Lines that wait for the SDK before the reader stops reading stdin (backpressure)."""
_SIMPLE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
_SOURCES = Path(__file__).resolve().parent.parent
"""The host package: a kept answer is stale once any of its modules changes."""
_DISTRIBUTIONS = ("mcp", "mcp_types", "pydantic", "pydantic_core")


def default_location() -> Path | None:
    """`$XDG_CACHE_HOME/playwright-tool-host/early-answers/` (`~/.cache` without it)."""
    return host_cache("early-answers")


def _digest(*parts: bytes | str) -> str:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _installed() -> list[bytes]:
    """The `RECORD` of each distribution that shapes the SDK's answers (name and version in
    its directory's name, and a hash of every file it installed)."""
    parts: list[bytes] = []
    listings: dict[str, list[str]] = {}
    for name in _DISTRIBUTIONS:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise LookupError(f"{name} is not installed")
        where = os.path.dirname(os.path.abspath(next(iter(spec.submodule_search_locations))))
        if where not in listings:
            listings[where] = sorted(os.listdir(where))
        found = [
            entry
            for entry in listings[where]
            if entry.startswith(f"{name}-")
            and entry.endswith(".dist-info")
            and "-" not in entry[len(name) + 1 : -len(".dist-info")]
        ]
        if len(found) != 1:
            raise LookupError(f"no single dist-info for {name}")
        parts.append(found[0].encode())
        parts.append(Path(where, found[0], "RECORD").read_bytes())
    return parts


def base_key(config: HostConfig, registry: ToolRegistry) -> str:
    """What every kept answer of this host depends on, but the requests themselves."""
    sources = [
        part
        for path in sorted(_SOURCES.rglob("*.py"))
        for part in (path.relative_to(_SOURCES).as_posix().encode(), path.read_bytes())
    ]
    tools = [repr(registry.tools[name]) for name in sorted(registry.tools)]
    toolsets = [repr(registry.toolsets[name]) for name in sorted(registry.toolsets)]
    # The configuration's repr leaves its secrets out; `initialize` tells their names.
    names = getattr(getattr(config, "secrets", None), "names", None)
    secret_names = repr(names()) if callable(names) else ""
    return _digest(
        str(FORMAT),
        sys.version,
        *_installed(),
        *sources,
        repr(config),
        secret_names,
        *tools,
        *toolsets,
        repr(sorted(getattr(registry, "aliases", {}).items())),
    )


class AnswerCache:
    """Kept `result` texts by key, one file each in a directory: a start reads only the few it
    answers from. Nothing here raises for a file missing, damaged or unwritable. A directory
    others could write to (or a file in it) is no cache: nothing is read from it nor written
    to it (`host.shared.cache_folder.private_folder`).

    A file holds one line of JSON (the format, the key, a digest of the result) and then the
    result's bytes as the SDK wrote them. Past `MAX_ENTRIES` files, the oldest are removed.
    """

    def __init__(self, location: Path | None) -> None:
        self.location = location

    def _path(self, key: str) -> Path | None:
        if self.location is None or not re.fullmatch(r"[0-9a-f]{40}", key):
            return None
        return self.location / f"{key}.answer"

    def get(self, key: str) -> bytes | None:
        path = self._path(key)
        if path is None:
            return None
        data = read_private(path)
        if data is None:
            return None
        header, _, result = data.partition(b"\n")
        try:
            fields = json.loads(header)
        except ValueError:
            return None
        if (
            not isinstance(fields, dict)
            or fields.get("format") != FORMAT
            or fields.get("key") != key
            or fields.get("digest") != _digest(result)
        ):
            return None
        return result

    def put(self, key: str, result: bytes) -> None:
        path = self._path(key)
        if path is None:
            return
        header = json.dumps({"format": FORMAT, "key": key, "digest": _digest(result)})
        if write_private(path, header.encode() + b"\n" + result):
            self._prune(path)

    @staticmethod
    def _prune(written: Path) -> None:
        """Remove the oldest answers past `MAX_ENTRIES` (never the one just written)."""
        kept: list[tuple[int, Path]] = []
        for entry in written.parent.glob("*.answer"):
            if entry != written:
                with contextlib.suppress(OSError):
                    kept.append((entry.stat().st_mtime_ns, entry))
        kept.sort(reverse=True)
        for _, entry in kept[MAX_ENTRIES - 1 :]:
            with contextlib.suppress(OSError):
                entry.unlink()


def id_text(request_id: object) -> bytes | None:
    """The request id as the SDK writes it back, for the ids answered early; else None."""
    if isinstance(request_id, int) and not isinstance(request_id, bool):
        return str(request_id).encode() if abs(request_id) < 2**53 else None
    if isinstance(request_id, str) and _SIMPLE_ID.fullmatch(request_id):
        return f'"{request_id}"'.encode()
    return None


def answer_prefix(request_id: object) -> bytes | None:
    """What an SDK answer to a request with this id starts with (before the result)."""
    text = id_text(request_id)
    return None if text is None else b'{"jsonrpc":"2.0","id":' + text + b',"result":'


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("duplicate key")
    return result


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def plain_message(line: bytes, max_depth: int) -> dict[str, Any] | None:
    """The JSON-RPC message on `line` if it is one this module may read as the SDK would."""
    if _refusal(line, max_depth) is not None:
        return None
    try:
        message = json.loads(line, object_pairs_hook=_pairs, parse_constant=_constant)
    except (ValueError, RecursionError):
        return None
    if (
        not isinstance(message, dict)
        or message.get("jsonrpc") != "2.0"
        or not isinstance(message.get("method"), str)
        or not set(message) <= {"jsonrpc", "id", "method", "params"}
        or not isinstance(message.get("params", {}), dict)
    ):
        return None
    try:  # a lone surrogate escape ("\ud800"): Python reads it, the SDK's parser refuses it
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return None
    return message


def _params(message: dict[str, Any]) -> str:
    if "params" not in message:
        return "absent"
    return json.dumps(message["params"], ensure_ascii=False, separators=(",", ":"))


CallAnswer = Callable[[str, JsonObject], Awaitable[JsonObject]]
"""Runs a tool by name with its arguments; the `result` of the `tools/call` (never raises for
what the tool did)."""

_CALL_PARAMS = frozenset({"name", "arguments"})


def encode_result(result: JsonObject) -> bytes:
    """A `tools/call` result as the SDK writes one: compact UTF-8 JSON (a lone surrogate, which
    UTF-8 cannot carry, escaped instead)."""
    try:
        return json.dumps(
            result, ensure_ascii=False, separators=(",", ":"), allow_nan=False
        ).encode()
    except UnicodeEncodeError:
        return json.dumps(result, separators=(",", ":"), allow_nan=False).encode()


@dataclass(frozen=True)
class Waiting:
    """A line for the SDK, and the key its answer is kept under (None: not kept)."""

    line: bytes | Skipped
    key: str | None = None


@dataclass(frozen=True)
class Replay:
    """What the SDK's server is given first: the client's `initialize` (answered early, with
    this id) and the notifications that followed it."""

    initialize: bytes
    request_id: int | str
    notifications: tuple[bytes, ...]


class EarlyResponder:
    """Reads the wire from the start; answers what it can until `handover`, then only feeds."""

    def __init__(
        self,
        wire: StdioWire,
        base: Callable[[], str],
        cache: AnswerCache,
        *,
        max_depth: int,
    ) -> None:
        self.wire = wire
        self.cache = cache
        self.max_depth = max_depth
        self.gone: str | None = None
        """Why the client is gone, if an early answer found stdout closed."""
        self._base = base
        self._session: str | None = None
        self._first = True
        self._initialized = False
        self._early = True
        self._replay: Replay | None = None
        self._notifications: list[bytes] = []
        self._queue: asyncio.Queue[Waiting | None] = asyncio.Queue(QUEUE_LINES)
        self._writing = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._caller: CallAnswer | None = None
        self._caller_known = asyncio.Event()
        self._calls: dict[object, asyncio.Task[None]] = {}
        """Calls answered here and still running, by request id."""
        self._written: set[object] = set()
        """Ids of the calls answered here whose answer was written."""
        self.sdk_wanted = asyncio.Event()
        """Set once the SDK is needed: a line waits for it, stdin ended, or a call was
        answered here (the start's first call is done; what follows may share the cores)."""
        self.ended_here = asyncio.Event()
        """Set when stdin ended with every line answered here: nothing waits for the SDK, so
        the host may exit without it (its import, if under way, is not waited for)."""
        self._handed = False

    def answer_calls(self, caller: CallAnswer | None) -> None:
        """From now on, while answering early, answer `tools/call` with what `caller` returns
        (None: the SDK answers them). A call read before this waits for it."""
        self._caller = caller
        self._caller_known.set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._read())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for call in list(self._calls.values()):
            call.cancel()

    async def drain(self, grace: float, cancelled: Callable[[object], bytes]) -> None:
        """At the end of stdin: wait up to `grace` seconds for the calls still running here,
        then stop the rest, each answered with the line `cancelled(request_id)` gives (the
        SDK's requests are answered the same way, by the transport)."""
        running = dict(self._calls)
        if running:
            await asyncio.wait(running.values(), timeout=grace)
        for request_id, call in running.items():
            if not call.done():
                call.cancel()
                await asyncio.gather(call, return_exceptions=True)
            if request_id not in self._written:
                async with self._writing:
                    with contextlib.suppress(BrokenPipeError, ConnectionError, OSError):
                        await self.wire.write(cancelled(request_id))

    async def handover(self) -> Replay | None:
        """Stop answering (after an answer being written); what to replay into the SDK."""
        async with self._writing:
            self._early = False
            if self._replay is None:
                return None
            return Replay(
                self._replay.initialize, self._replay.request_id, tuple(self._notifications)
            )

    def keep(self, key: str, request_id: object, data: bytes) -> None:
        """Keep `data`, the SDK's answer to a request with this id, if it is a result."""
        prefix = answer_prefix(request_id)
        if prefix is None or not data.startswith(prefix) or not data.endswith(b"}\n"):
            return  # an error, or not shaped as expected: not kept
        result = data[len(prefix) : -2]
        try:
            if not isinstance(json.loads(result), dict):
                return
        except ValueError:
            return
        self.cache.put(key, result)

    async def next(self) -> Waiting | None:
        """The next line for the SDK, in the client's order; None at the end of stdin."""
        item = await self._queue.get()
        if item is None:
            self._queue.put_nowait(None)  # the end stays the end
        return item

    async def _read(self) -> None:
        try:
            async for line in self.wire.lines():
                waiting = await self._take(line)
                if waiting is not None:
                    self._early = False
                    self._handed = True
                    self.sdk_wanted.set()
                    await self._queue.put(waiting)
        except Exception as error:  # stdin failed: the end of the client's messages
            log.info("reading stdin failed: %s", error)
        self.sdk_wanted.set()
        if not self._handed:
            self.ended_here.set()
        await self._queue.put(None)

    async def _take(self, line: bytes | Skipped) -> Waiting | None:
        """Answer `line` now (None), or what waits for the SDK."""
        message = None if isinstance(line, Skipped) else plain_message(line, self.max_depth)
        first, self._first = self._first, False
        if message is None:
            return Waiting(line)
        assert not isinstance(line, Skipped)
        method, request_id = message["method"], message.get("id")
        if "id" not in message:
            cancelled = (message.get("params") or {}).get("requestId")
            if (
                method == "notifications/cancelled"
                and isinstance(cancelled, int | str)
                and not isinstance(cancelled, bool)  # true would find the call of id 1
            ):
                call = self._calls.pop(cancelled, None)
                if call is not None:  # one of the calls answered here: no answer, as the SDK
                    call.cancel()
                    return None
            if method == "notifications/initialized" and self._session is not None:
                self._initialized = True
                if self._early and self._replay is not None and not self._notifications:
                    self._notifications.append(line)  # one: a second one waits for the SDK
                    return None
            return Waiting(line)
        if id_text(request_id) is None:
            return Waiting(line)
        key: str | None = None
        if first and method == "initialize":
            try:
                base = self._base()
            except Exception as error:  # any doubt: no early answers, the SDK answers
                log.info("no early answers: %s", error)
                return Waiting(line)
            self._session = _digest(base, _params(message))
            key = _digest(self._session, method)
        elif self._session is not None and method in ANSWERED:
            key = _digest(self._session, method, str(self._initialized), _params(message))
        if method == "tools/call" and self._answers_call(message):
            await self._caller_known.wait()  # the host is made right after the start
            if self._caller is not None and request_id not in self._calls:
                # Run beside the reader, as the SDK runs a request: later lines (a ping, a
                # cancellation) are read meanwhile; the session runs its calls in order.
                call = asyncio.ensure_future(self._answer_call(request_id, message["params"]))
                self._calls[request_id] = call
                call.add_done_callback(lambda _: self._forget(request_id, call))
                return None
        if key is None or not self._early:
            return Waiting(line, key)
        if method != "initialize" and self._replay is None:
            return Waiting(line, key)  # only in a session this module opened
        result = self.cache.get(key)
        prefix = answer_prefix(request_id)
        if result is None or prefix is None:
            return Waiting(line, key)
        async with self._writing:
            if not self._early:
                return Waiting(line, key)
            try:
                await self.wire.write(prefix + result + b"}\n")
            except (BrokenPipeError, ConnectionError, OSError):
                self.gone = "the client closed stdout"
                self._early = False
                return None
        if method == "initialize" and isinstance(request_id, int | str):
            self._replay = Replay(line, request_id, ())
        log.info("answered %s early", method)
        return None

    def _answers_call(self, message: dict[str, Any]) -> bool:
        """Whether this `tools/call` is answered here (once a caller is known): in a session this
        module opened and the client confirmed, with params of a name and (optionally) an
        object of arguments only (anything else, `_meta` included, is the SDK's to read)."""
        params = message.get("params")
        return (
            self._early
            and self._initialized
            and self._replay is not None
            and isinstance(params, dict)
            and set(params) <= _CALL_PARAMS
            and isinstance(params.get("name"), str)
            and isinstance(params.get("arguments", {}), dict)
        )

    def _forget(self, request_id: object, call: asyncio.Task[None]) -> None:
        if self._calls.get(request_id) is call:
            del self._calls[request_id]

    async def _answer_call(self, request_id: object, params: dict[str, Any]) -> None:
        """Run the call and write its answer (none if it is cancelled). Answered even if the SDK
        took over meanwhile: it never sees this request, so nothing else would answer it."""
        assert self._caller is not None
        prefix = answer_prefix(request_id)
        assert prefix is not None
        try:
            result = await self._caller(params["name"], params.get("arguments", {}))
            data = prefix + encode_result(result) + b"}\n"
        except Exception:  # the host's own failure: still an answer, as the SDK would give
            log.exception("an early tools/call failed")
            data = error_line(request_id, INTERNAL_ERROR, "the call failed inside the host")
        async with self._writing:
            self._written.add(request_id)
            try:
                await self.wire.write(data)
            except (BrokenPipeError, ConnectionError, OSError):
                self.gone = "the client closed stdout"
                self._early = False
                return
        log.info("answered tools/call early")
        self.sdk_wanted.set()

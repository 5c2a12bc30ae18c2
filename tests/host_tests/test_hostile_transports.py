"""Round three of the hostile catalogue, over the real transports: the HTTP server under slow,
endless, nested and numerous requests; the scripting callback against web pages (the host's own
browser included); the stdio transport under bad lines, signals and a client that stops reading
(docs/ERRORS.md, rows 133 on)."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import resource
import select
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from host_tests.host_helpers import (
    PYTHON,
    REPO,
    ServedHost,
    alive,
    browser_choice,
    chromium_pids,
    descendants,
    serve_host,
    wait_until,
)
from host_tests.hostile_pages import HostilePages, start_hostile_pages
from host_tests.test_host_security import request

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pages() -> Iterator[HostilePages]:
    state, server = start_hostile_pages()
    yield state
    server.stop()


@pytest.fixture(scope="module")
def guarded() -> Iterator[ServedHost]:
    """A host with short HTTP time limits and few connections, so each limit shows quickly."""
    host = serve_host(
        "--toolset",
        "all",
        "--http-header-timeout",
        "2",
        "--http-body-timeout",
        "3",
        "--max-connections",
        "40",
    )
    yield host
    host.stop()


def script(base: str, tool: str, arguments: dict[str, Any], **headers: str) -> tuple[int, Any]:
    envelope = {
        "version": 1,
        "session_id": "hostile",
        "invocation_id": "1",
        "action": {"type": "call_tool", "tool_name": tool, "arguments_json": json.dumps(arguments)},
    }
    status, body, _ = request(
        base,
        "/scripting/callback",
        method="POST",
        body=json.dumps(envelope).encode(),
        headers={"content-type": "application/json", **headers},
    )
    return status, json.loads(body) if body else None


# -- the scripting callback and web pages ------------------------------------------------------


def test_the_scripting_callback_takes_only_json_and_no_page_origin(
    guarded: ServedHost, pages: HostilePages
) -> None:
    port = urlsplit(guarded.base).port
    before = len(pages.seen)
    navigate = {"url": pages.url("/plain?from-a-page")}
    envelope = json.dumps(
        {
            "version": 1,
            "session_id": "page",
            "invocation_id": "1",
            "action": {
                "type": "call_tool",
                "tool_name": "web_navigate",
                "arguments_json": json.dumps(navigate),
            },
        }
    ).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        status, body, _ = request(
            guarded.base,
            "/scripting/callback",
            method="POST",
            body=envelope,
            headers={"content-type": kind} if kind else {},
        )
        assert status == 415 and b"application/json" in body, (kind, status, body)
    for origin in (f"http://127.0.0.1:{port}", "http://127.0.0.1:1", "http://localhost:8", "null"):
        status, body, _ = request(
            guarded.base,
            "/scripting/callback",
            method="POST",
            body=envelope,
            headers={"content-type": "application/json", "origin": origin},
        )
        assert status == 403 and b"web pages" in body, (origin, status)
    # /mcp accepts the server's own origin, not another port of the same machine.
    assert (
        request(
            guarded.base,
            "/mcp",
            method="POST",
            body=b"{}",
            headers={"origin": "http://127.0.0.1:1"},
        )[0]
        == 403
    )
    assert pages.seen[before:] == []  # no refused request ran its tool


def test_the_hosts_own_browser_cannot_drive_the_host(
    guarded: ServedHost, pages: HostilePages
) -> None:
    status, answer = script(guarded.base, "web_navigate", {"url": pages.url("/plain")})
    assert status == 200 and answer["result"]["success"], answer
    forged = json.dumps(
        {
            "version": 1,
            "session_id": "forged",
            "invocation_id": "1",
            "action": {
                "type": "call_tool",
                "tool_name": "web_navigate",
                "arguments_json": json.dumps({"url": pages.url("/plain?forged")}),
            },
        }
    )
    attack = (
        f"fetch('{guarded.base}/scripting/callback', {{method: 'POST', mode: 'no-cors', "
        f"headers: {{'content-type': 'text/plain'}}, body: {json.dumps(forged)}}})"
        ".then(() => 'sent', () => 'blocked')"
    )
    # The host's structured content (`X-Result-Shape: host`) carries the session's notes.
    status, answer = script(
        guarded.base, "web_evaluate", {"script": attack}, **{"x-result-shape": "host"}
    )
    assert status == 200 and answer["result"]["structured_content"]["result"] == "blocked", answer
    assert "/plain?forged" not in pages.seen
    notes = answer["result"]["structured_content"].get("notes") or []
    assert any(n.get("event") == "request_blocked" for n in notes), notes


# -- the HTTP server ---------------------------------------------------------------------------


def _connect(base: str) -> socket.socket:
    parts = urlsplit(base)
    return socket.create_connection((parts.hostname, parts.port), timeout=30)


def _closed_within(sock: socket.socket, seconds: float) -> bytes:
    """Everything the server sent until it closed the connection (which must happen in time).

    A close is an end of stream or a reset: a client still sending when the server closes has
    bytes unread in the server's socket, and closing such a socket sends a reset. What the server
    sent before it (the 408) is still read first, since a reset does not discard received data."""
    sock.settimeout(seconds)
    received = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


def test_slow_headers_and_endless_bodies_are_cut_off(guarded: ServedHost) -> None:
    slow = _connect(guarded.base)
    slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    started = time.monotonic()
    feeding = True

    def trickle() -> None:
        while feeding:
            with contextlib.suppress(OSError):
                slow.send(b"a")
            time.sleep(0.5)

    threading.Thread(target=trickle, daemon=True).start()
    answer = _closed_within(slow, 30)
    feeding = False
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert time.monotonic() - started < 20

    endless = _connect(guarded.base)
    host = urlsplit(guarded.base).netloc
    endless.sendall(
        f"POST /scripting/callback HTTP/1.1\r\nHost: {host}\r\ncontent-type: application/json\r\n"
        "transfer-encoding: chunked\r\n\r\n".encode()
    )
    started = time.monotonic()
    feeding = True

    def chunks() -> None:
        while feeding:
            with contextlib.suppress(OSError):
                endless.send(b"1\r\n \r\n")
            time.sleep(0.2)

    threading.Thread(target=chunks, daemon=True).start()
    answer = _closed_within(endless, 30)
    feeding = False
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert time.monotonic() - started < 20


def test_a_connection_flood_neither_exhausts_descriptors_nor_locks_clients_out(
    guarded: ServedHost,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    idle = []
    try:
        for _ in range(1100):
            idle.append(_connect(guarded.base))
        # A real client still gets in (the oldest idle connection gives way), and at once.
        started = time.monotonic()
        status, body = script(guarded.base, "web_evaluate", {"script": "40 + 2"})
        assert status == 200 and body["result"]["success"], body
        assert time.monotonic() - started < 20
        held = len(os.listdir(f"/proc/{guarded.process.pid}/fd"))
        assert held < 40 + 200, held  # connections stay near the limit, far from 1,100
        refused = 0
        for sock in idle:
            sock.settimeout(0.01)
            with contextlib.suppress(OSError):
                if sock.recv(16).startswith((b"HTTP/1.1 503", b"HTTP/1.1 408")):
                    refused += 1
        assert refused > 0
    finally:
        for sock in idle:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


BAD_BODIES = [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    b"",
    b"{",
    b"[]",
    b"null",
    b'{"version": 1}',
    b"\xff\xfe not utf-8",
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "a\\ud800"}}',
    b'{"jsonrpc": "2.0", "id": 1e999999, "method": "x"}',
    b'{"version": 1, "session_id": "s", "invocation_id": "i", "action": {"type": "call_tool", '
    b'"tool_name": "web_evaluate", "arguments_json": "{\\"script\\": \\"\\\\ud800\\"}"}}',
]


@pytest.mark.parametrize("body", BAD_BODIES, ids=range(len(BAD_BODIES)))
def test_no_body_gets_a_500(guarded: ServedHost, body: bytes) -> None:
    for path in ("/mcp", "/scripting/callback"):
        status, answer, _ = request(
            guarded.base,
            path,
            method="POST",
            body=body,
            headers={
                "content-type": "application/json",
                "accept": "application/json, text/event-stream",
            },
        )
        assert 400 <= status < 500 or (status == 200 and path == "/scripting/callback"), (
            path,
            status,
            answer[:200],
        )
        if body.startswith(b"[["):
            assert status == 400 and b"nests more than" in answer


def test_healthz_sees_a_dead_driver_and_the_next_call_relaunches(pages: HostilePages) -> None:
    host = serve_host("--toolset", "all")
    try:
        status, answer = script(host.base, "web_navigate", {"url": pages.url("/plain")})
        assert status == 200 and answer["result"]["success"]
        assert request(host.base, "/healthz")[0] == 200
        os.kill(_driver_of(host.process.pid), signal.SIGKILL)
        status, body, _ = request(host.base, "/healthz")
        assert status == 503 and b"driver" in body, body
        status, answer = script(host.base, "web_navigate", {"url": pages.url("/plain")})
        assert status == 200 and answer["result"]["success"], answer
        health = json.loads(request(host.base, "/healthz")[1])
        assert health["ok"] and health["driverStarts"] == 2, health
    finally:
        host.stop()


def _driver_of(pid: int) -> int:
    for child in descendants(pid):
        with contextlib.suppress(OSError), open(f"/proc/{child}/cmdline", "rb") as handle:
            if b"run-driver" in handle.read():
                return child
    raise AssertionError("no Playwright driver below the host")


# -- the stdio transport -----------------------------------------------------------------------


class StdioClient:
    """`python -m host serve --stdio`, spoken to one raw JSON-RPC line at a time."""

    def __init__(self, *extra: str) -> None:
        self.process = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "host",
                "serve",
                "--stdio",
                "--toolset",
                "all",
                *extra,
                *browser_choice(extra),
            ],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.stderr: list[bytes] = []
        self._stop_reading = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        # select + os.read, never a blocking read on the file object: closing stdout while a
        # thread is blocked reading it would wait on the reader's lock forever.
        assert self.process.stdout is not None
        fd, pending = self.process.stdout.fileno(), b""
        while not self._stop_reading.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                self.lines.put(line)

    def close_stdout(self) -> None:
        """Close the host's stdout from this end (the reader is stopped first)."""
        self._stop_reading.set()
        self._reader.join(5)
        assert self.process.stdout is not None
        self.process.stdout.close()

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def send(self, data: bytes | dict[str, Any]) -> None:
        assert self.process.stdin is not None
        raw = data if isinstance(data, bytes) else json.dumps(data).encode()
        self.process.stdin.write(raw + b"\n")
        self.process.stdin.flush()

    def answer(self, timeout: float = 60) -> dict[str, Any]:
        return json.loads(self.lines.get(timeout=timeout))  # type: ignore[no-any-return]

    def start(self) -> None:
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "hostile", "version": "1"},
                },
            }
        )
        assert self.answer()["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, request_id: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": "tools/call",
                "params": {"name": tool, "arguments": arguments},
            }
        )
        return self.answer()

    def browsers(self) -> set[int]:
        return chromium_pids(descendants(self.process.pid))


def test_bad_lines_on_stdio_are_answered_and_the_server_goes_on() -> None:
    client = StdioClient()
    try:
        client.start()
        bad = [
            (b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "a\\ud800", "arguments": {}}}', 7),
            (b'{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "web_evaluate", "arguments": {"script": "1", "arg": ' + b"[" * 250 + b"1" + b"]" * 250 + b"}}}", 8),
            (b"\xff\xfe", None),
            (b"not json", None),
            (b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "web_title", "arguments": {"x": "' + b"a" * (5 * 1024 * 1024) + b'"}}}', 9),
        ]  # fmt: skip
        for line, request_id in bad:
            client.send(line)
            answer = client.answer()
            assert "error" in answer and answer["id"] == request_id, answer
            assert answer["error"]["message"], answer
        listed = client.call(10, "web_evaluate", {"script": "2 + 3"})
        assert listed["id"] == 10 and listed["result"]["structuredContent"]["result"] == 5
        # JSON text with a lone surrogate escape: the SDK's parser refuses it; the transport says so.
        refused = client.call(11, "web_fill", {"selector": "#\ud800", "value": "x"})
        assert refused["id"] == 11 and "lone surrogate" in refused["error"]["message"], refused
    finally:
        client.process.kill()
        client.process.wait(30)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_stdio_host_whatever_its_client_does(signum: int) -> None:
    client = StdioClient()
    client.start()
    assert client.call(1, "web_evaluate", {"script": "1"})["result"]["isError"] is False
    browsers = wait_until(client.browsers, "the browser")
    # The client keeps stdin open and a call is running.
    client.send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "web_evaluate",
                "arguments": {"script": "new Promise(() => {})"},
            },
        }
    )
    started = time.monotonic()
    client.process.send_signal(signum)
    assert client.process.wait(30) == 0
    assert time.monotonic() - started < 20
    wait_until(lambda: not any(alive(p) for p in browsers), "Chromium to exit")
    assert b"Traceback" not in b"".join(client.stderr)


def test_a_closed_stdout_ends_the_stdio_host_quietly() -> None:
    client = StdioClient()
    client.start()
    assert client.call(1, "web_evaluate", {"script": "1"})["result"]["isError"] is False
    browsers = wait_until(client.browsers, "the browser")
    client.close_stdout()
    client.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert client.process.wait(30) == 0
    wait_until(lambda: not any(alive(p) for p in browsers), "Chromium to exit")
    assert b"Traceback" not in b"".join(client.stderr), b"".join(client.stderr)[-2000:]


def test_the_stdio_host_with_stdin_on_dev_null_ends_quietly() -> None:
    """`/dev/null` is a device epoll refuses: the host reads it as a file, meets EOF, stops."""
    with open(os.devnull, "rb") as null:
        done = subprocess.run(
            [PYTHON, "-m", "host", "serve", "--stdio", *browser_choice(())],
            cwd=REPO,
            stdin=null,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr

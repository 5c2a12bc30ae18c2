"""Helpers of the host's tests: a page server, an event loop thread, process inspection, a served host."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from conftest import BROWSER_NAMES, HEADLESS_CHROMIUM
from conftest import CHROMIUM as CHROMIUM  # for the tests of a command as typed (its default)
from local_server import LocalServer, PageHandler, serve

from host.settings.config import HostConfig

# -- the page server ---------------------------------------------------------------------------


REPO = Path(__file__).resolve().parents[2]


def initialize_message(client: str = "t") -> dict[str, Any]:
    """An MCP `initialize` request as a client sends it first (id 1, no capabilities)."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": client, "version": "1"},
        },
    }


PYTHON = sys.executable
# The suite runs three workers on two cores, often beside other work: an action that takes 200 ms
# on a quiet machine can take seconds. Hosts under test get a generous action timeout; tests
# about timeouts pass their own short ones.
ACTION_TIMEOUT_S = 30.0


def host_config(**settings: Any) -> HostConfig:
    """A HostConfig for tests: the defaults, with the action timeout above and the headless
    shell for the browser, plus `settings`."""
    return HostConfig(
        **{"action_timeout": ACTION_TIMEOUT_S, "executable_path": HEADLESS_CHROMIUM, **settings}
    )


_CHOOSE_THE_BROWSER = frozenset(
    {"--executable-path", "--browser", "--cdp-endpoint", "--browser-endpoint", "--extension"}
    | {"--endpoint", "--headed", "--config"}
)
"""Options of `serve` that choose the browser (or read a file that may): a test that gives one
gets what it asked for, not the headless shell."""


def browser_choice(args: Sequence[str]) -> tuple[str, ...]:
    """`--executable-path HEADLESS_CHROMIUM` for a host started with `args`, unless one of them
    chooses the browser."""
    if any(arg.split("=", 1)[0] in _CHOOSE_THE_BROWSER for arg in args):
        return ()
    return ("--executable-path", HEADLESS_CHROMIUM)


PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + bytes(
    range(200, 256)
)

PAGES = {
    "/page": "<title>host e2e</title><h1 id=h>page</h1>"
    "<a id=blank href=/page2 target=_blank>open</a>"
    "<button id=confirm onclick=\"document.title = 'confirm:' + confirm('Delete it?')\">c</button>"
    "<button id=prompt onclick=\"document.title = 'prompt:' + prompt('Name?', 'x')\">p</button>",
    "/page2": "<title>second</title><p id=p>second page</p>",
    "/form": "<title>form</title>"
    + "".join(
        f"<input id=f{i} aria-label='Field {i}'><button id=b{i} onclick=\"document.getElementById('out').textContent = 'clicked {i}: ' + document.getElementById('f{i}').value\">Button {i}</button>"
        for i in range(10)
    )
    + "<p id=out>none</p>",
}


@dataclass
class AppServer:
    """Pages on 127.0.0.1 that record what they were asked."""

    base: str
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path

    def headers_for(self, path: str) -> list[dict[str, str]]:
        return [h for p, h in list(self.seen) if p == path]


def remote_debugging_chromium(profile: Path) -> subprocess.Popen[bytes]:
    """A headless Chromium of its own (the headless shell), serving the DevTools protocol on a
    free loopback port (it writes the port to `profile/DevToolsActivePort`): a browser that runs
    outside the host."""
    return subprocess.Popen(
        [
            HEADLESS_CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def make_app_server() -> tuple[AppServer, LocalServer]:
    """Serve PAGES (and a few API answers) on 127.0.0.1 in a thread."""
    server_state = AppServer(base="")

    class Handler(PageHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/_seen":
                real = [(p, h) for p, h in list(server_state.seen) if p != "/favicon.ico"]
                body = json.dumps(
                    {"headers": real[-1][1] if real else {}, "count": len(real)}
                ).encode()
                self._send(200, "application/json", body)
                return
            server_state.seen.append((path, {k.lower(): v for k, v in self.headers.items()}))
            if path in PAGES:
                self._send(200, "text/html; charset=utf-8", PAGES[path].encode())
            elif path.startswith("/api/items"):
                self._send(200, "application/json", json.dumps({"items": [1, 2, 3]}).encode())
            elif path == "/api/missing":
                self._send(404, "application/json", b'{"error": "missing"}')
            elif path == "/image.png":
                self._send(200, "image/png", PNG)
            else:
                self._send(404, "text/plain", b"not found")

    httpd = serve(Handler)
    server_state.base = httpd.origin
    return server_state, httpd


# -- an event loop in a thread, for in-process hosts ------------------------------------------

T = TypeVar("T")


class LoopThread:
    """Runs coroutines on one event loop in a background thread (a host lives on one loop)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def marked_processes(mark: str) -> list[int]:
    """Live processes (not zombies) whose environment holds `mark`: those that descend from a
    process started with it in its environment (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if mark.encode() not in handle.read():
                    continue
            with open(f"/proc/{entry}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
        except (OSError, IndexError):
            continue
        found.append(int(entry))
    return found


def drivers_below(pid: int) -> list[int]:
    """Playwright drivers (`node ... run-driver`) whose parent is `pid` (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid and b"run-driver" in command:
            found.append(int(entry))
    return found


def wait_until(condition: Any, what: str, deadline: float = 120.0) -> Any:
    """Poll `condition` until it is truthy; fail after `deadline` seconds (no fixed sleeps). The
    deadline is generous: a passing run never waits it out, and a machine running browsers for
    other test workers (and CI neighbours) has taken over 30 s for what takes one alone."""
    end = time.monotonic() + deadline
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


async def crash_renderer(context: Any, page: Any) -> None:
    """Crash a page's renderer, as a renderer bug would (DevTools' `Page.crash`)."""
    cdp = await context.new_cdp_session(page)
    with contextlib.suppress(Exception):  # the answer never comes: the renderer is gone
        await asyncio.wait_for(cdp.send("Page.crash"), 5)


# -- processes ---------------------------------------------------------------------------------


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found: set[int] = set()
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def chromium_pids(pids: set[int]) -> set[int]:
    """The browser (not renderer or helper) processes among `pids`."""
    found = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().split(b"\0")
        except OSError:
            continue
        if (
            cmdline
            and cmdline[0].rsplit(b"/", 1)[-1] in BROWSER_NAMES
            and not any(a.startswith(b"--type=") for a in cmdline)
        ):
            found.add(pid)
    return found


@dataclass
class ServedHost:
    """`python -m host serve --http 127.0.0.1:0` in a subprocess."""

    process: subprocess.Popen[str]
    base: str
    log: list[str]

    @property
    def mcp_url(self) -> str:
        return self.base + "/mcp"

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout)


def serve_host(
    *extra: str,
    env: dict[str, str] | None = None,
    bind: str = "127.0.0.1:0",
    transport: Sequence[str] | None = None,
) -> ServedHost:
    """`serve --http BIND` (or `transport`'s options instead, such as `--port 0`) with `extra`."""
    process = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "host",
            "serve",
            *(transport if transport is not None else ("--http", bind)),
            "--log-level",
            "info",
            "--action-timeout",
            str(ACTION_TIMEOUT_S),
            *browser_choice(extra),
            *extra,
        ],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    assert process.stderr is not None
    log: list[str] = []
    for line in process.stderr:
        log.append(line)
        found = re.search(r"serving MCP at (http://\S+)/mcp", line)
        if found:
            break
    else:
        raise AssertionError("the host did not start:\n" + "".join(log))
    base = found.group(1).replace("0.0.0.0", "127.0.0.1")

    def drain() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)

    threading.Thread(target=drain, daemon=True).start()
    return ServedHost(process, base, log)

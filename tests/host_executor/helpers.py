"""Helpers of the executor's tests: a page server, the service in a subprocess, a transcript."""

from __future__ import annotations

import html
import http.client
import http.server
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote_to_bytes, urlsplit

from conftest import BROWSER_NAMES, HEADLESS_CHROMIUM
from host_tests.host_helpers import wait_until  # noqa: F401 (the executor tests import it from here)
from local_server import LocalServer, serve

REPO = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

SECRET = "Tr0ub4dor&3-horse-5f2c"
"""The redacted value the tests type; `&` makes its URL-, HTML- and JSON-encoded forms differ."""


def _form_page() -> str:
    return (
        "<title>Sign up</title><form action=/welcome method=get>"
        "<input data-testid=full-name name=name aria-label='Full name'>"
        "<input type=email name=email aria-label=Email>"
        "<label>Password <input type=password name=pw></label>"
        "<button id=go type=submit>Create account</button></form>"
    )


PAGES: dict[str, str] = {
    "/form": _form_page(),
    # What the page sees of the browser's options, as its title.
    "/size": "<title>size</title><script>document.title = innerWidth + 'x' + innerHeight + ' '"
    " + navigator.userAgent + ' ' + (window.__fromInit || 'no-init');</script>",
    "/drift": "<title>drift</title>"
    "<input data-testid=email-input><input name=userName>"
    "<button data-testid=submit-btn onclick=\"document.getElementById('out').textContent ="
    " 'sent ' + document.querySelector('[name=userName]').value\">Send</button><p id=out></p>",
    # The field appears 100 ms after the page is first searched from its main world, which
    # only the service's candidate search does (after attempt 0): late, whatever the load.
    "/late": "<title>late</title><script>const all = Document.prototype.querySelectorAll;"
    " let armed = false; Document.prototype.querySelectorAll = function (...args) {"
    " if (!armed) { armed = true; setTimeout(() => document.body.insertAdjacentHTML("
    "'beforeend', '<input id=late-field>'), 100); } return all.apply(this, args); };"
    "</script><p>wait</p>",
    "/ambiguous": "<title>ambiguous</title>"
    + "<input name=email><input name=email>"
    + "<input aria-label=email><input aria-label=email>"
    + "<input data-testid=email><input data-testid=email>",
    "/pii": "<title>pii</title><input id=acct-12345678 name='jane.doe@example.com-confirm'>",
    "/js-submit": '<title>js submit</title><form id=f onsubmit="event.preventDefault();'
    " document.getElementById('out').textContent = 'submitted by ' + (event.submitter ?"
    " event.submitter.id : 'none') + ' with ' + new FormData(this).get('q')\">"
    "<input name=q><button id=send>Send</button></form><p id=out>not yet</p>",
    # A submit whose page shows the answer of a request it starts (held by the test).
    "/late-submit": "<title>late</title><button id=send onclick=\"fetch('/hold?key=late')"
    ".then(r => r.text()).then(() => { document.getElementById('out').textContent = "
    "'answered late' })\">Send</button><p id=out>not yet</p>",
    # A form on a page in a legacy charset: the browser encodes what it cannot spell in
    # windows-1252 as a numeric character reference, then percent-encodes the lot.
    "/form-1252": "<title>legacy</title><form action=/echo-1252 method=get>"
    "<input type=password name=pw aria-label=pw><button id=go>Go</button></form>",
    "/form-utf8": "<title>modern</title><form action=/echo-utf8 method=get>"
    "<input type=password name=pw aria-label=pw><button id=go>Go</button></form>",
    # Filling `#a` adds a second `.b`: counted ahead `.b` is one element, at its step two.
    "/grow": '<title>grow</title><input id=a oninput="if (!window.grown) { window.grown = true;'
    " document.body.insertAdjacentHTML('beforeend', '<input class=b>'); }\"><input class=b>",
    # Filling `#a` removes `#b`: counted ahead `#b` is one element, at its step none.
    "/vanish": '<title>vanish</title><input id=a oninput="const b ='
    " document.getElementById('b'); if (b) b.remove();\"><input id=b>",
    # The excerpt's element is in a child frame, whose title is not the page's.
    "/framed": '<title>outer</title><iframe srcdoc="<title>inner</title><p id=x>in frame</p>">'
    "</iframe>",
    # Dialogs nobody is there to answer: an alert while the page loads, then on the submit a
    # confirm and a prompt, whose answers the page shows.
    "/dialogs": "<title>dialogs</title><script>alert('welcome')</script><button id=send"
    " onclick=\"document.getElementById('out').textContent = 'confirm ' + confirm('Send?')"
    " + ', prompt ' + prompt('Name?', 'x')\">Send</button><p id=out>not yet</p>",
    # A form whose page asks before it is left (once the user typed, Chromium asks).
    "/leave": "<title>leave</title><script>addEventListener('beforeunload', (e) => {"
    " e.preventDefault(); e.returnValue = ''; });</script><form action=/welcome method=get>"
    "<input name=name aria-label=name><button id=go>Go</button></form>",
    # The submit opens a file chooser, which no action answers (its tabs hold none).
    "/chooser": "<title>chooser</title><input type=file id=file><input id=name>"
    "<button id=go onclick=\"document.getElementById('file').click();"
    " document.title = 'chose ' + document.getElementById('name').value\">Go</button>",
    # A worker that logs in a loop from its first statement until the host's console limiter is
    # in it, then tells the page how many lines it logged. Nothing else ends the loop: a guard
    # that never lands leaves the title as it is.
    "/worker": "<title>worker</title><script>new Worker(URL.createObjectURL(new Blob(["
    "'let i = 0; for (; !console.__hostLimited; i++) console.log(\\'w \\' + i);"
    " postMessage(i);'])))"
    ".onmessage = (m) => { document.title = 'limited after ' + m.data; };</script>",
    # Pages whose script never ends: once loaded, and while loading.
    "/spin": "<title>spin</title><input id=a><script>setTimeout(() => { while (true) {} }, 50)"
    "</script>",
    "/spin-load": "<title>spin</title><input id=a><script>while (true) {}</script>",
    "/dirty": "<title>dirty</title><div id=box onclick=\"steal()\" style='color:red'>"
    "<script>var leaked = 1;</script><style>p { color: red }</style>"
    '<p onmouseover="x()">visible text</p><input name=token value=csrf-abc123>'
    '<textarea name=notes>draft words</textarea><a href="javascript:alert(1)">bad</a>'
    "<a href=/form>good</a></div>",
}


@dataclass
class PageServer:
    """Pages on 127.0.0.1; `/hang` answers only when released (or after a minute)."""

    base: str = ""
    seen: list[str] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    holds: dict[str, threading.Event] = field(default_factory=dict)

    def url(self, path: str) -> str:
        return self.base + path

    def hold(self, key: str) -> threading.Event:
        """The event that releases `/hold?key=<key>` (which answers after a minute otherwise)."""
        return self.holds.setdefault(key, threading.Event())


def start_page_server() -> tuple[PageServer, LocalServer]:
    state = PageServer()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            state.seen.append(self.path)
            if parts.path == "/hang":
                state.release.wait(60)
                self._send("<title>late</title>")
                return
            if parts.path == "/welcome":
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                name = html.escape(query.get("name", ""))
                # The page echoes every value, the password too: the service must scrub it.
                self._send(
                    f"<title>Welcome {name}</title><h1 id=hello>Hello {name}</h1>"
                    f"<p id=email>{html.escape(query.get('email', ''))}</p>"
                    f"<p id=echo>pw={html.escape(query.get('pw', ''))}</p>"
                )
                return
            if parts.path in ("/echo-1252", "/echo-utf8"):
                # Echoes the query twice: as sent (percent-encoded) and decoded, in the page's
                # own charset, so that every spelling the browser made shows in the page.
                charset = "windows-1252" if parts.path == "/echo-1252" else "utf-8"
                raw = html.escape(parts.query).encode("ascii")
                decoded = unquote_to_bytes(parts.query.replace("+", " "))
                self._send_bytes(
                    b"<title>Echo "
                    + raw
                    + b"</title><p id=raw>"
                    + raw
                    + b"</p><p id=decoded>"
                    + decoded
                    + b"</p>",
                    charset,
                )
                return
            if parts.path == "/hold":
                state.hold(parse_qs(parts.query).get("key", [""])[0]).wait(60)
                self._send("<title>held</title><p id=done>released</p>")
                return
            target = parse_qs(parts.query).get("url", [""])[0]
            if parts.path == "/redirect":
                self.send_response(302)
                self.send_header("location", target)
                self.send_header("content-length", "0")
                self.end_headers()
                return
            if parts.path == "/embed":
                # Every way a page makes a request without navigating.
                url = html.escape(target)
                self._send(
                    f"<title>embeds</title><img src='{url}?img'><script src='{url}?script'>"
                    f"</script><iframe src='{url}?frame'></iframe><link rel=stylesheet"
                    f" href='{url}?css'><script>fetch('{url}?fetch').catch(() => 0);"
                    f" navigator.sendBeacon('{url}?beacon', 'x');"
                    f" new Worker('data:text/javascript,fetch(\"{url}?worker\")');</script>"
                    "<p id=done>embedded</p>"
                )
                return
            page = PAGES.get(parts.path)
            if page is None:
                self.send_error(404)
                return
            legacy = parts.path.endswith("-1252")
            self._send_bytes(page.encode(), "windows-1252" if legacy else "utf-8")

        def _send(self, text: str) -> None:
            self._send_bytes(text.encode(), "utf-8")

        def _send_bytes(self, body: bytes, charset: str) -> None:
            self.send_response(200)
            self.send_header("content-type", f"text/html; charset={charset}")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = serve(Handler)
    state.base = server.origin
    return state, server


@dataclass
class Reply:
    status: int
    body: dict[str, Any]
    raw: bytes
    elapsed: float
    headers: dict[str, str] = field(default_factory=dict)


_CHOOSE_THE_BROWSER = frozenset({"--executable-path", "--engine", "--browser-endpoint", "--config"})
"""Options of `executor` that choose the browser: a test that gives one gets what it asked for."""


class ExecutorProcess:
    """`python -m host executor` in a subprocess; every byte it writes and answers is kept. It
    launches the headless shell (tests/conftest.py) unless `args` choose the browser."""

    def __init__(self, *args: str, env: dict[str, str] | None = None, deadline: float = 90) -> None:
        chosen = any(arg.split("=", 1)[0] in _CHOOSE_THE_BROWSER for arg in args)
        browser = () if chosen else ("--executable-path", HEADLESS_CHROMIUM)
        self.process = subprocess.Popen(
            [PYTHON, "-m", "host", "executor", *browser, *args],
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.responses: list[bytes] = []
        self._lock = threading.Lock()
        assert self.process.stdout is not None and self.process.stderr is not None
        for stream, sink in (
            (self.process.stdout, self.stdout),
            (self.process.stderr, self.stderr),
        ):
            threading.Thread(target=self._drain, args=(stream, sink), daemon=True).start()
        end = time.monotonic() + deadline
        while True:
            found = self.events("executor_web.listening")
            if found:
                self.base = str(found[0]["url"]).replace("0.0.0.0", "127.0.0.1")
                break
            if self.process.poll() is not None or time.monotonic() > end:
                self.stop()
                raise AssertionError("the executor did not start:\n" + self.log())
            time.sleep(0.05)
        host_port = self.base.split("//", 1)[1]
        self.host, port = host_port.rsplit(":", 1)
        self.port = int(port)

    def _drain(self, stream: Any, sink: bytearray) -> None:
        for chunk in iter(lambda: stream.read1(65536), b""):
            with self._lock:
                sink.extend(chunk)

    def log(self) -> str:
        with self._lock:
            return bytes(self.stderr).decode(errors="replace")

    def events(self, name: str | None = None) -> list[dict[str, Any]]:
        found = []
        for line in self.log().splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if isinstance(item, dict) and (name is None or item.get("event") == name):
                found.append(item)
        return found

    def emitted(self) -> bytes:
        """Everything: stdout, stderr and every response body received."""
        with self._lock:
            return bytes(self.stdout) + bytes(self.stderr) + b"".join(self.responses)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 200,
    ) -> Reply:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        started = time.monotonic()
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        elapsed = time.monotonic() - started
        with self._lock:
            self.responses.append(raw)
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = {"unparsed": raw.decode(errors="replace")}
        answered = {k.lower(): v for k, v in response.getheaders()}
        return Reply(response.status, parsed, raw, elapsed, answered)

    def execute(self, payload: object, headers: dict[str, str] | None = None) -> Reply:
        return self.request(
            "POST",
            "/execute",
            json.dumps(payload).encode(),
            {"content-type": "application/json", **(headers or {})},
        )

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self.request("GET", path, headers=headers)

    def stop(self, timeout: float = 30) -> int:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(10)


def process_tree(root: int) -> set[int]:
    """Every live process below `root`."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    children.setdefault(int(stat.read().rsplit(")", 1)[1].split()[1]), []).append(
                        int(entry)
                    )
            except (OSError, IndexError, ValueError):
                continue
    found: set[int] = set()
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def chromium_processes(root: int) -> dict[int, list[bytes]]:
    """Chromium processes below `root` and their command lines."""
    found = {}
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().split(b"\0")
        except OSError:
            continue
        if cmdline and cmdline[0].rsplit(b"/", 1)[-1] in BROWSER_NAMES:
            found[pid] = cmdline
    return found


def uids_of(pid: int) -> list[int]:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("Uid:"):
                return [int(v) for v in line.split()[1:]]
    raise AssertionError(f"no Uid line for {pid}")

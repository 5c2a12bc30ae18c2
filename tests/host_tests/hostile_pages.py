"""Pages that attack the host: floods, hangs, huge results, redirects to local files, self-closing
tabs. Served on 127.0.0.1 by one quiet `LocalServer`; every request is recorded by path."""

from __future__ import annotations

import http.server
import json
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from local_server import LocalServer, serve

# A worker's script: it waits for the host's console limiter, then logs 100,000 lines.
_WORKER_FLOOD = (
    "const flood = () => { for (let i = 0; i < 100000; i++) console.log('%s ' + i); };"
    " const go = () => (console.__hostLimited ? flood() : setTimeout(go, 10)); go();"
)

PAGES: dict[str, str] = {
    "/plain": "<title>plain</title><p id=p>plain page</p>",
    # A console flood from the page itself, and from a worker (init scripts never run there).
    "/console-flood": "<title>flood</title><script>"
    "for (let i = 0; i < 100000; i++) console.log('line ' + i);</script><p>done</p>",
    # The worker floods once the host's limiter is in it (`console.__hostLimited`), not after a
    # fixed delay: what it logs before the limiter lands races Playwright's own resume of the
    # worker (see host/sessions/worker_guard.py), and a busy machine loses that race by any delay. A
    # guard that never lands leaves the worker waiting, and the test sees no drops.
    "/worker-flood": "<title>worker flood</title><script>"
    "new Worker(URL.createObjectURL(new Blob(["
    + json.dumps(_WORKER_FLOOD % "w")
    + "])));</script>",
    # A worker that starts a worker that floods, likewise: the guard reaches workers of workers.
    "/nested-worker-flood": "<title>nested</title><script>"
    f"const inner = {json.dumps(_WORKER_FLOOD % 'n')};"
    "new Worker(URL.createObjectURL(new Blob(["
    "'new Worker(URL.createObjectURL(new Blob([' + JSON.stringify(inner) + '])));'])));</script>",
    # A worker that logs in a loop from its first statement until the limiter is in it, then
    # says so in the page's title. Playwright's own session may let it run before the guard's
    # commands arrive: the guard must then stop it where it is.
    "/worker-loop": "<title>worker loop</title><script>new Worker(URL.createObjectURL(new Blob(["
    "'let i = 0; for (; !console.__hostLimited; i++) console.log(\\'w \\' + i);"
    " postMessage(i);']))).onmessage = (m) => { document.title = 'limited after ' + m.data; };"
    "</script>",
    # Uncaught errors are no console call: the in-page limit cannot hold them back.
    "/error-flood": "<title>errors</title><script>for (let i = 0; i < 20000; i++)"
    " setTimeout(() => { throw new Error('e' + i); });</script>",
    # Requests are no console call either: the session stops listening past its flood limit.
    # Bursts of 1,000 every 20 ms up to 10,000, so that some second passes the flood limit
    # however slowly the machine issues them.
    "/request-flood": "<title>requests</title><script>let n = 0; const t = setInterval(() => {"
    " for (let i = 0; i < 1000; i++) new Image().src = 'http://127.0.0.1:9/' + n++;"
    " if (n >= 10000) clearInterval(t); }, 20);</script>",
    # Floods that never end (the fairness benchmark): 10,000 of a kind every 10 ms.
    "/endless-console": "<title>endless</title><script>setInterval(() => {"
    " for (let i = 0; i < 10000; i++) console.log('line ' + i); }, 10);</script>",
    "/endless-worker": "<title>endless worker</title><script>"
    "new Worker(URL.createObjectURL(new Blob(['setInterval(() => {"
    ' for (let i = 0; i < 10000; i++) console.log("w " + i); }, 10);\'])));</script>',
    "/endless-errors": "<title>endless errors</title><script>setInterval(() => {"
    " for (let i = 0; i < 1000; i++) setTimeout(() => { throw new Error('e' + i); }); }, 10);"
    "</script>",
    "/endless-requests": "<title>endless requests</title><script>setInterval(() => {"
    " for (let i = 0; i < 100; i++) new Image().src = 'http://127.0.0.1:9/' + Math.random(); },"
    " 10);</script>",
    "/popups": '<title>popups</title><button id=go onclick="for (let i = 0; i < 60; i++)'
    " window.open('/plain?' + i)\">go</button>",
    "/dialogs": '<title>dialogs</title><button id=go onclick="for (let i = 0; i < 200; i++)'
    " alert(i); document.title = 'after'\">go</button>",
    "/busy": "<title>busy</title><button id=go onclick='while (true) {}'>go</button>",
    # A synchronous request that is never answered blocks the renderer's main thread outside any
    # script: stopping scripts cannot free it.
    "/sync-wait": '<title>sync</title><button id=go onclick="const x = new XMLHttpRequest();'
    " x.open('GET', '/never', false); x.send()\">go</button>",
    # A popup (a window a script opened may close itself) that closes itself once armed.
    "/opener": "<title>opener</title><button id=go onclick=\"window.open('/closes-itself')\">"
    "go</button>",
    "/closes-itself": "<title>closing</title><button id=arm onclick="
    "'setTimeout(() => window.close(), 500)'>arm</button>",
    "/huge-dom": "<title>huge</title><div id=root></div><script>"
    "const root = document.getElementById('root'); const parts = [];"
    "for (let i = 0; i < 200000; i++) parts.push('<span class=item>item ' + i + '</span>');"
    "root.innerHTML = parts.join('');</script>",
    # Workers that outlive the page (issue 37): a shared worker and a service worker that would
    # flood the console, beside a dedicated worker that must still work.
    "/lasting-workers": "<title>lasting</title><script>"
    "window.outcome = {};"
    "try { new SharedWorker(URL.createObjectURL(new Blob(["
    + json.dumps(_WORKER_FLOOD % "s")
    + "]))); outcome.shared = 'started'; } catch (e) { outcome.shared = e.name + ': ' + e.message; }"
    "outcome.service = navigator.serviceWorker.register('/flood-sw.js').then("
    "() => 'registered', (e) => e.name + ': ' + e.message);"
    "outcome.dedicated = new Promise((done) => { const w = new Worker(URL.createObjectURL("
    "new Blob(['postMessage(6 * 7)']))); w.onmessage = (m) => done(m.data); });</script>",
    "/flood-sw.js": _WORKER_FLOOD % "sw",
    "/file-frame": "<title>frames</title><iframe src='file:///etc/passwd'></iframe>",
    "/opens-file": "<title>opener</title><button id=go onclick=\"window.open('file:///etc/passwd');"
    " location.href = 'file:///etc/hostname'\">go</button>",
}


@dataclass
class HostilePages:
    """What the hostile page server was asked (paths, in order)."""

    base: str = ""
    seen: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path


def start_hostile_pages() -> tuple[HostilePages, LocalServer]:
    state = HostilePages()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            state.seen.append(parts.path)
            query = parse_qs(parts.query)
            if parts.path == "/to-file":
                self.send_response(302)
                self.send_header("location", "file:///etc/passwd")
                self.end_headers()
                return
            if parts.path == "/redirect":
                self.send_response(302)
                self.send_header("location", query.get("to", ["/plain"])[0])
                self.end_headers()
                return
            if parts.path in ("/slow", "/never"):
                import time

                time.sleep(5 if parts.path == "/slow" else 90)
            body = PAGES.get(parts.path, "<title>slow</title>" if parts.path == "/slow" else None)
            if body is None:
                self.send_response(404)
                self.send_header("content-length", "0")
                self.end_headers()
                return
            data = body.encode()
            self.send_response(200)
            kind = "text/javascript" if parts.path.endswith(".js") else "text/html"
            self.send_header("content-type", kind + "; charset=utf-8")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            state.seen.append("POST " + urlsplit(self.path).path)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = serve(Handler)
    state.base = server.origin
    return state, server

"""Benchmark of the web executor (not a test): its actions per second against plain Playwright's.

    python benchmarks/executor_bench.py [--actions 30] [--concurrency 1 4] [--rounds 4] [--same-flags]

The action: open a three-field form, fill the fields (one redacted), submit it, wait for the
result page, read its URL, title and body markup. Measured two ways, each on one browser
launched once per concurrency level and warmed up (the same Chromium binary, headless), with one
new BrowserContext per action. The direct side's browser gets the service's flags from `/sandbox`
(its port guard's included, since that decides what a page may reach) but not the Chromium
features the service turns off (host/browsers/chromium_features.py): plain Playwright, as a
script would launch it. With `--same-flags` it gets those features off too, and the ratio is
the service's own overhead:

- direct: the steps written with Playwright's async API in this process (goto, three fills,
  click, wait for `load`, the URL, then the title and the body's outerHTML in one evaluation,
  as the service reads them), the context closed before the action counts as done;
- service: `python -m host executor --max-concurrent N` in a subprocess, one `POST /execute`
  per action. It answers before closing the action's context, but the next action waits for
  the slot until that context closed, so the close is in both sides' throughput.

Rounds alternate direct and service in ABBA order, so that the drift of a shared machine hits
both alike. Printed per concurrency: the median actions/s of each side with its range over the
rounds, the ratio service/direct of the medians (the issue's figure: 1.0 means no overhead, and
is the target) with the range of the ratios of the rounds run back to back, the
median latency of one action, and the CPU seconds one action cost all processes of the run
(this one, the service, both drivers and browsers) while that side ran, in total and by kind
of process (this process, the service's Python, the drivers, the browser processes, the
renderers with the zygote that forks and reaps them, Chromium's other helpers).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import http.server
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import Browser, async_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from host.browsers.chromium_features import FLAG as DISABLE_FEATURES  # noqa: E402
from host.settings.config import DEFAULT_BROWSER_ARGS  # noqa: E402

T = TypeVar("T")
CHROMIUM = "/usr/bin/chromium"
TARGET = 1.0
"""Issue 45's target: the service manages at least as many actions/s as Playwright alone."""
READ_JS = "() => ({title: document.title, html: document.body.outerHTML})"
FORM = (
    "<title>form</title><form action=/done method=get>"
    "<input id=name name=name><input id=email name=email><input id=pw name=pw type=password>"
    "<button id=go>Send</button></form>"
)


def serve_pages() -> str:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            if parts.path == "/done":
                name = parse_qs(parts.query).get("name", [""])[0]
                body = f"<title>done {name}</title><p id=out>thanks {name}</p>".encode()
            else:
                body = FORM.encode()
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            # The browser may close a context mid-request (the action is over): not our news.
            with contextlib.suppress(ConnectionError):
                self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.request_queue_size = 128
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def payload(base: str, number: int) -> dict[str, object]:
    return {
        "url": base + "/form",
        "fields": [
            {"selector": "#name", "value": f"user{number}"},
            {"selector": "#email", "value": f"user{number}@example.org"},
            {"selector": "#pw", "value": f"secret-{number}", "redact": True},
        ],
        "submit": {"selector": "#go"},
    }


PROCESS_KINDS = ("this process", "service", "drivers", "browsers", "renderers", "other Chromium")
"""Where the CPU of a run goes, by the kind of process that spent it (`cpu_by_kind`)."""


def _kind(pid: int, root: int, name: str, cmdline: bytes) -> str:
    if pid == root:
        return "this process"
    if b"run-driver" in cmdline:
        return "drivers"
    if name.startswith("python"):
        return "service"
    if b"--type=renderer" in cmdline or b"--type=zygote" in cmdline:
        # Chromium's zygote forks the renderers and reaps them: an exited renderer's time is in
        # the zygote's children's time.
        return "renderers"
    if b"--type=" in cmdline:
        return "other Chromium"
    return "browsers"


def cpu_by_kind(root: int) -> dict[str, float]:
    """CPU seconds used by `root` and its descendants, those that exited included (Linux), by
    the kind of process (PROCESS_KINDS); an exited process counts in its parent's kind."""
    parents: dict[int, list[int]] = {}
    used: dict[int, tuple[str, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                head, tail = stat.read().rsplit(")", 1)
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                arguments = cmdline.read()
        except OSError:
            continue  # exited meanwhile: its time is in its parent's children's time
        fields = tail.split()
        pid = int(entry)
        parents.setdefault(int(fields[1]), []).append(pid)
        # utime, stime, and the same for children already waited for.
        seconds = sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        used[pid] = (_kind(pid, root, head.split("(", 1)[1], arguments), seconds)
    totals = dict.fromkeys(PROCESS_KINDS, 0.0)
    stack = [root]
    while stack:
        pid = stack.pop()
        if pid in used:
            kind, seconds = used[pid]
            totals[kind] += seconds
        stack.extend(parents.get(pid, []))
    return totals


def tree_cpu(root: int) -> float:
    """CPU seconds used by `root` and its descendants, those that exited included (Linux)."""
    return sum(cpu_by_kind(root).values())


class Direct:
    """Plain Playwright on its own browser, driven from a private event loop in a thread."""

    def __init__(self, browser_args: list[str]) -> None:
        self.browser_args = browser_args
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self._browser: Browser | None = None
        self._stop: asyncio.Event | None = None
        self._holder: asyncio.Future[None] | None = None
        self._run(self._start())

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    async def _start(self) -> None:
        ready = asyncio.Event()
        self._stop = asyncio.Event()

        async def hold() -> None:
            async with async_playwright() as playwright:
                self._browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=self.browser_args
                )
                ready.set()
                assert self._stop is not None
                await self._stop.wait()
                await self._browser.close()

        self._holder = asyncio.ensure_future(hold())
        await ready.wait()

    async def _one(self, base: str, number: int) -> None:
        assert self._browser is not None
        context = await self._browser.new_context()
        try:
            page = await context.new_page()
            await page.goto(base + "/form")
            await page.locator("#name").fill(f"user{number}")
            await page.locator("#email").fill(f"user{number}@example.org")
            await page.locator("#pw").fill(f"secret-{number}")
            await page.locator("#go").click()
            await page.wait_for_load_state("load")
            # The title and the body's markup in one evaluation, as the service reads them.
            read = await page.evaluate(READ_JS)
            assert read["title"] == f"done user{number}", read
            _ = page.url
        finally:
            await context.close()

    async def _round(self, base: str, actions: int, concurrency: int) -> tuple[float, list[float]]:
        gate = asyncio.Semaphore(concurrency)
        latencies: list[float] = []

        async def one(number: int) -> None:
            async with gate:
                started = time.perf_counter()
                await self._one(base, number)
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        await asyncio.gather(*(one(n) for n in range(actions)))
        return time.perf_counter() - started, latencies

    def round(self, base: str, actions: int, concurrency: int) -> tuple[float, list[float]]:
        return self._run(self._round(base, actions, concurrency))

    def stop(self) -> None:
        async def stop() -> None:
            assert self._stop is not None and self._holder is not None
            self._stop.set()
            await self._holder

        self._run(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)


class Service:
    """`python -m host executor` in a subprocess, at its normal log level."""

    def __init__(self, concurrency: int, extra: tuple[str, ...] = ()) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "host",
                "executor",
                "--bind",
                "127.0.0.1:0",
                "--max-concurrent",
                str(max(concurrency, 1)),
                *extra,
            ],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stderr is not None
        self.port = 0
        # The service logs JSON lines at info (its normal cost); the first event names its port.
        for line in self.process.stderr:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "executor_web.listening":
                self.port = int(str(event["url"]).rsplit(":", 1)[1])
                break
        threading.Thread(
            target=lambda: [None for _ in self.process.stderr or []], daemon=True
        ).start()
        if not self.port:
            raise SystemExit("the executor did not start")

    def browser_args(self) -> list[str]:
        """The flags the service launched its Chromium with (its port guard's included)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request("GET", "/sandbox")
            flags = json.loads(connection.getresponse().read())["sandbox_flags"]
        finally:
            connection.close()
        assert set(DEFAULT_BROWSER_ARGS) <= set(flags), flags
        return [str(flag) for flag in flags]

    def plain_args(self) -> list[str]:
        """The service's flags without the Chromium features it turns off: Playwright's own."""
        return [f for f in self.browser_args() if not f.startswith(DISABLE_FEATURES)]

    def execute(self, body: dict[str, object]) -> tuple[int, dict[str, object]]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            connection.request(
                "POST", "/execute", json.dumps(body), {"content-type": "application/json"}
            )
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def round(self, base: str, actions: int, concurrency: int) -> tuple[float, list[float]]:
        latencies: list[float] = []

        def one(number: int) -> None:
            started = time.perf_counter()
            status, body = self.execute(payload(base, number))
            assert status == 200 and body["title"] == f"done user{number}", body
            latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            list(pool.map(one, range(actions)))
        return time.perf_counter() - started, latencies

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


@dataclass
class Side:
    """What one way of running the actions measured over the rounds."""

    rates: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    by_kind: list[dict[str, float]] = field(default_factory=list)

    def measure(
        self, run: Callable[[str, int, int], tuple[float, list[float]]], base: str, n: int, c: int
    ) -> None:
        before = cpu_by_kind(os.getpid())
        elapsed, latencies = run(base, n, c)
        after = cpu_by_kind(os.getpid())
        spent = {kind: (after[kind] - before[kind]) / n for kind in PROCESS_KINDS}
        self.cpu.append(sum(spent.values()))
        self.by_kind.append(spent)
        self.rates.append(n / elapsed)
        self.latencies += latencies

    def rate(self) -> str:
        return f"{statistics.median(self.rates):.2f} ({min(self.rates):.2f}-{max(self.rates):.2f})"

    def kinds(self) -> str:
        """The median CPU per action of each kind of process, in milliseconds."""
        return ", ".join(
            f"{kind} {statistics.median(r[kind] for r in self.by_kind) * 1000:.0f}"
            for kind in PROCESS_KINDS
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=30, help="actions per round (default 30)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4])
    parser.add_argument(
        "--rounds", type=int, default=4, help="rounds of each side, in ABBA order (default 4)"
    )
    parser.add_argument(
        "--same-flags",
        action="store_true",
        help="launch the direct side's Chromium with the service's features off too",
    )
    args = parser.parse_args()
    base = serve_pages()
    print(
        f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
        f"{args.actions} actions per round, {args.rounds} rounds of each side; direct side: "
        + ("the service's flags" if args.same_flags else "Playwright's own Chromium features")
    )
    for concurrency in args.concurrency:
        service = Service(concurrency)
        direct = Direct(service.browser_args() if args.same_flags else service.plain_args())
        ways = {"direct": Side(), "service": Side()}
        try:
            service.round(base, 2 * concurrency, concurrency)  # warm-up: first contexts
            direct.round(base, 2 * concurrency, concurrency)
            for number in range(args.rounds):
                order = ("direct", "service") if number % 2 == 0 else ("service", "direct")
                for way in order:
                    run = direct.round if way == "direct" else service.round
                    ways[way].measure(run, base, args.actions, concurrency)
        finally:
            service.stop()
            direct.stop()
        d, s = ways["direct"], ways["service"]
        ratio = statistics.median(s.rates) / statistics.median(d.rates)
        pairs = [b / a for a, b in zip(d.rates, s.rates, strict=True)]
        print(
            f"concurrency {concurrency}: direct Playwright {d.rate()} actions/s, service "
            f"{s.rate()} actions/s; ratio service/direct {ratio:.2f} (rounds "
            f"{min(pairs):.2f}-{max(pairs):.2f}; target >= {TARGET}: "
            f"{'met' if ratio >= TARGET else 'NOT met'})\n"
            f"  median latency {statistics.median(d.latencies) * 1000:.0f} ms direct, "
            f"{statistics.median(s.latencies) * 1000:.0f} ms service; CPU per action "
            f"{statistics.median(d.cpu):.2f} s direct, {statistics.median(s.cpu):.2f} s service\n"
            f"  CPU ms per action by process, direct: {d.kinds()}\n"
            f"  CPU ms per action by process, service: {s.kinds()}"
        )


if __name__ == "__main__":
    main()

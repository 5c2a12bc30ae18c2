"""Benchmark of the web executor (not a test): actions per second and its overhead over Playwright.

    python benchmarks/executor_bench.py [--actions 40] [--concurrency 1 4] [--rounds 2]

The action: open a three-field form, fill the fields (one redacted), click submit, wait for the
result page, read URL, title and a sanitised body excerpt. Measured two ways in one run, in
alternating rounds so that machine drift hits both alike:

- direct: the same steps written with Playwright's async API in this process, one new
  BrowserContext per action (as the service does), on the same Chromium build and flags;
- service: `python -m host executor` in a subprocess, one `POST /execute` per action over HTTP.

Printed per concurrency: actions per second of each (median of the rounds) and the ratio
direct/service (how many times more actions per second plain Playwright manages; 1.0 = no
overhead), plus the median latency of one action.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import http.server
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import async_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from host.config import DEFAULT_BROWSER_ARGS  # noqa: E402

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


async def direct_round(base: str, actions: int, concurrency: int) -> tuple[float, list[float]]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=list(DEFAULT_BROWSER_ARGS)
        )
        gate = asyncio.Semaphore(concurrency)
        latencies: list[float] = []

        async def one(number: int) -> None:
            async with gate:
                started = time.perf_counter()
                context = await browser.new_context()
                try:
                    page = await context.new_page()
                    await page.goto(base + "/form")
                    await page.locator("#name").fill(f"user{number}")
                    await page.locator("#email").fill(f"user{number}@example.org")
                    await page.locator("#pw").fill(f"secret-{number}")
                    await page.locator("#go").click()
                    await page.wait_for_load_state("load")
                    title = await page.title()
                    assert title == f"done user{number}", title
                    _ = page.url, await page.locator("body").evaluate("e => e.outerHTML")
                finally:
                    await context.close()
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        await asyncio.gather(*(one(n) for n in range(actions)))
        elapsed = time.perf_counter() - started
        await browser.close()
    return elapsed, latencies


class Service:
    def __init__(self, concurrency: int) -> None:
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

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def service_round(
    service: Service, base: str, actions: int, concurrency: int
) -> tuple[float, list[float]]:
    latencies: list[float] = []

    def one(number: int) -> None:
        started = time.perf_counter()
        status, body = service.execute(payload(base, number))
        assert status == 200 and body["title"] == f"done user{number}", body
        latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(one, range(actions)))
    return time.perf_counter() - started, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=40, help="actions per round (default 40)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    base = serve_pages()
    print(
        f"machine: {os.cpu_count()} cores; {args.actions} actions per round, {args.rounds} rounds"
    )
    for concurrency in args.concurrency:
        service = Service(concurrency)
        try:
            service_round(service, base, 2, 1)  # warm-up (first context, registry)
            asyncio.run(direct_round(base, 2, 1))
            direct: list[float] = []
            served: list[float] = []
            direct_latency: list[float] = []
            served_latency: list[float] = []
            for _ in range(args.rounds):
                elapsed, latencies = asyncio.run(direct_round(base, args.actions, concurrency))
                direct.append(args.actions / elapsed)
                direct_latency += latencies
                elapsed, latencies = service_round(service, base, args.actions, concurrency)
                served.append(args.actions / elapsed)
                served_latency += latencies
        finally:
            service.stop()
        d, s = statistics.median(direct), statistics.median(served)
        print(
            f"concurrency {concurrency}: direct Playwright {d:.2f} actions/s, service {s:.2f} "
            f"actions/s, ratio direct/service {d / s:.2f}; median latency "
            f"{statistics.median(direct_latency) * 1000:.0f} ms direct, "
            f"{statistics.median(served_latency) * 1000:.0f} ms service"
        )


if __name__ == "__main__":
    main()

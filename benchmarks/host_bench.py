"""Benchmark of the tool host (not a test): ratios measured in one run on this machine.

    python benchmarks/host_bench.py [--calls 2000] [--runs 5]

1. Added cost per call over a direct Playwright call (`web_evaluate` of `1+1`): in process, and
   over MCP in memory (the Python SDK's client), interleaved in blocks so drift hits both alike.
2. The same MCP client script (navigate, 10 fills and clicks, read a text) against this host and
   against `@playwright/mcp` from npm, both over stdio, alternating runs; medians.
3. Time from start until the HTTP host answers, session creation time, memory per idle session.
4. What recording (`--record`) adds to a recordable call: a fill and a click by snapshot ref,
   each resolved to a stable locator and written to a trail, against the same calls on a host
   that does not record; interleaved blocks, medians, and their ratio.

    python benchmarks/host_bench.py --only recording   # just the recording cost
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path

from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from host.config import HostConfig  # noqa: E402
from host.core import Host  # noqa: E402
from host.mcp_server import build_server  # noqa: E402
from host.trails.trail import read_trail  # noqa: E402

FORM = (
    "<title>form</title>"
    + "".join(
        f"<input id=f{i} aria-label='Field {i}'><button id=b{i} onclick=\"document.getElementById('out')"
        f".textContent = 'clicked {i}: ' + document.getElementById('f{i}').value\">Button {i}</button>"
        for i in range(10)
    )
    + "<p id=out>none</p>"
)
PLAYWRIGHT_MCP = REPO / "node_modules/@playwright/mcp/cli.js"


def serve_form() -> str:
    import http.server

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = FORM.encode()
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/form"


async def per_call(run: Callable[[], Awaitable[object]], count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        await run()
        times.append(time.perf_counter() - start)
    return times


async def call_overhead(calls: int) -> dict[str, float]:
    async with Host(HostConfig()) as host:
        server = build_server(host, host.registry.select(["default", "web_framework"]))
        async with Client(server, mode="legacy") as client:
            await host.call("bench", "web_evaluate", {"expression": "1+1"})
            await client.call_tool("web_evaluate", {"expression": "1+1"})
            session = host.sessions.get("bench")
            assert session is not None and session.current is not None
            page = session.current.page
            mcp_session = next(s for k, s in host.sessions._sessions.items() if k != "bench")
            assert mcp_session.current is not None
            mcp_page = mcp_session.current.page
            args = {"expression": "1+1"}
            direct: list[float] = []
            hosted: list[float] = []
            direct_mcp: list[float] = []
            over_mcp: list[float] = []
            block = 100
            for _ in range(calls // block):
                direct += await per_call(lambda: page.evaluate("1+1"), block)
                hosted += await per_call(lambda: host.call("bench", "web_evaluate", args), block)
                direct_mcp += await per_call(lambda: mcp_page.evaluate("1+1"), block)
                over_mcp += await per_call(lambda: client.call_tool("web_evaluate", args), block)
    return {
        "direct_median": statistics.median(direct),
        "hosted_median": statistics.median(hosted),
        "direct_total": sum(direct),
        "hosted_total": sum(hosted),
        "direct_mcp_median": statistics.median(direct_mcp),
        "mcp_median": statistics.median(over_mcp),
    }


async def form_script(params: StdioServerParameters, url: str, ours: bool) -> float:
    async with Client(params) as client:
        start = time.perf_counter()
        if ours:
            await client.call_tool("web_navigate", {"url": url})
            for i in range(10):
                await client.call_tool(
                    "web_locator_fill", {"selector": f"#f{i}", "value": f"value {i}"}
                )
                await client.call_tool("web_locator_click", {"selector": f"#b{i}"})
            result = await client.call_tool("web_locator_textContent", {"selector": "#out"})
        else:
            await client.call_tool("browser_navigate", {"url": url})
            for i in range(10):
                await client.call_tool("browser_type", {"target": f"#f{i}", "text": f"value {i}"})
                await client.call_tool("browser_click", {"target": f"#b{i}"})
            result = await client.call_tool(
                "browser_evaluate", {"function": "() => document.getElementById('out').textContent"}
            )
        elapsed = time.perf_counter() - start
    text = "".join(getattr(block, "text", "") for block in result.content)
    assert "clicked 9: value 9" in text and not result.is_error, text[:500]
    return elapsed


async def side_by_side(url: str, runs: int) -> tuple[list[float], list[float]]:
    workdir = tempfile.mkdtemp(prefix="host-bench-")  # @playwright/mcp writes snapshots to its cwd
    ours = StdioServerParameters(
        command=sys.executable,
        args=["-m", "host", "serve", "--stdio", "--toolset", "all"],
        cwd=str(REPO),
    )
    theirs = StdioServerParameters(
        command="node",
        args=[
            str(PLAYWRIGHT_MCP),
            "--headless",
            "--isolated",
            "--no-sandbox",
            "--executable-path",
            "/usr/bin/chromium",
        ],
        cwd=workdir,
    )
    mine, other = [], []
    for _ in range(runs):
        mine.append(await form_script(ours, url, True))
        other.append(await form_script(theirs, url, False))
    return mine, other


def ready_time() -> float:
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "host", "serve", "--http", "127.0.0.1:0"],
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    base = line.split("serving MCP at ", 1)[1].split("/mcp", 1)[0]
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=5) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.005)
    elapsed = time.perf_counter() - start
    process.terminate()
    process.wait(30)
    return elapsed


def pss_kib(pids: set[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def tree(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry))
    found, stack = {pid}, [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.add(child)
            stack.append(child)
    return found


async def sessions_and_memory(url: str) -> tuple[float, float]:
    async with Host(HostConfig(max_sessions=64)) as host:
        await host.call("warm", "web_navigate", {"url": url})
        creation = []
        for i in range(20):
            start = time.perf_counter()
            await host.call(f"s{i}", "web_evaluate", {"expression": "1"})
            creation.append(time.perf_counter() - start)
        for i in range(20):
            await host.sessions.drop(f"s{i}")
        before = pss_kib(tree(os.getpid()))
        for i in range(10):
            await host.call(f"idle{i}", "web_navigate", {"url": url})
        after = pss_kib(tree(os.getpid()))
    return statistics.median(creation), (after - before) / 10 / 1024


async def recording_cost(url: str, rounds: int) -> tuple[float, float]:
    """Median seconds of a fill and a click by ref: without recording, and recording."""
    import re

    with tempfile.TemporaryDirectory() as folder:
        trail = Path(folder) / "bench.trail.yaml"
        async with Host(HostConfig()) as plain, Host(HostConfig(record=trail)) as recording:
            times: dict[int, list[float]] = {0: [], 1: []}
            for host in (plain, recording):
                await host.call("rec", "navigate", {"url": url})
            for round_number in range(rounds):
                for which, host in enumerate((plain, recording)):
                    snapshot = await host.call("rec", "web_snapshot", {})
                    refs = re.findall(r'textbox "Field 3"[^\n]*\[ref=(e\d+)\]', snapshot.text())
                    button = re.findall(r'button "Button 3"[^\n]*\[ref=(e\d+)\]', snapshot.text())
                    for tool, args in (
                        ("fill", {"target": refs[0], "text": f"value {round_number}"}),
                        ("click", {"target": button[0]}),
                    ):
                        start = time.perf_counter()
                        outcome = await host.call("rec", tool, args)
                        times[which].append(time.perf_counter() - start)
                        assert outcome.ok, outcome.text()
            recorded = read_trail(trail).steps
            assert len(recorded) == 2 * rounds + 1, len(recorded)  # and the navigation
    return statistics.median(times[0]), statistics.median(times[1])


def print_recording(url: str, rounds: int) -> None:
    plain, recorded = asyncio.run(recording_cost(url, rounds))
    ms = 1000.0
    print(f"{'fill/click by ref, not recording, median':46} {plain * ms:9.3f} ms")
    print(f"{'fill/click by ref, recording, median':46} {recorded * ms:9.3f} ms")
    print(f"{'recording / not recording':46} {recorded / plain:9.3f} x    <= 1.05 x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=100, help="recording: fill+click rounds")
    parser.add_argument("--only", choices=("recording",), help="run one measurement only")
    options = parser.parse_args()
    url = serve_form()
    if options.only == "recording":
        print_recording(url, options.rounds)
        return
    overhead = asyncio.run(call_overhead(options.calls))
    ready = statistics.median(ready_time() for _ in range(3))
    creation, memory = asyncio.run(sessions_and_memory(url))
    ours, theirs = asyncio.run(side_by_side(url, options.runs))

    added = overhead["hosted_total"] / overhead["direct_total"] - 1
    added_mcp_ms = (overhead["mcp_median"] - overhead["direct_mcp_median"]) * 1000
    ms = 1000.0
    print(
        f"calls per measurement: {options.calls} (web_evaluate of 1+1), blocks of 100 interleaved"
    )
    print(f"{'measurement':46} {'value':>12}   target")
    print(f"{'direct page.evaluate, median':46} {overhead['direct_median'] * ms:9.3f} ms")
    print(f"{'host.call in process, median':46} {overhead['hosted_median'] * ms:9.3f} ms")
    print(f"{'added cost in process (total time ratio)':46} {added * 100:9.2f} %    <= 5 %")
    print(f"{'MCP in memory (Python SDK client), median':46} {overhead['mcp_median'] * ms:9.3f} ms")
    print(f"{'added cost over MCP in memory, median':46} {added_mcp_ms:9.3f} ms   <= 1 ms")
    print(
        f"{'form script, this host (stdio), median':46} {statistics.median(ours):9.3f} s    runs {', '.join(f'{t:.2f}' for t in ours)}"
    )
    print(
        f"{'form script, @playwright/mcp (stdio), median':46} {statistics.median(theirs):9.3f} s    runs {', '.join(f'{t:.2f}' for t in theirs)}"
    )
    print(
        f"{'ours / theirs':46} {statistics.median(ours) / statistics.median(theirs):9.2f} x    <= 1 x"
    )
    print(f"{'start until /healthz answers (HTTP), median':46} {ready:9.3f} s    <= 1 s")
    print(f"{'session creation (browser running), median':46} {creation * ms:9.1f} ms")
    print(f"{'memory per idle session (PSS, all processes)':46} {memory:9.1f} MiB")
    print_recording(url, options.rounds)


if __name__ == "__main__":
    main()

"""Benchmark of the tool host (not a test): ratios measured in one run on this machine.

    python benchmarks/host_bench.py [--calls 2000] [--runs 5]

1. Added cost per call over a direct Playwright call (`web_evaluate` of `1+1`): in process, and
   over MCP in memory (the Python SDK's client), interleaved in blocks so drift hits both alike.
2. Start, against `@playwright/mcp` (node_modules, pinned in package.json) over stdio, alternating
   runs, medians: from spawning the server to the answer of the first `tools/list` (after the
   initialize handshake), and to the answer of the first navigate (handshake, `tools/list`, then
   `navigate` / `browser_navigate` of a local page). A bare JSON-RPC client speaks to both, so
   no client library's cost is in the figures.
3. The same MCP client script (navigate, 10 fills and clicks, read a text: 22 calls) against this
   host and against `@playwright/mcp`, both over stdio, alternating runs, medians, timed from
   the spawn (start included).
4. Time from start until the HTTP host answers, session creation time, memory per idle session.
5. What recording (`--record`) adds to a recordable call: a fill and a click by snapshot ref,
   each resolved to a stable locator and written to a trail, against the same calls on a host
   that does not record; interleaved blocks, medians, and their ratio.

6. Single actions over MCP stdio with the official SDK client (the Python `mcp` package), against
   `@playwright/mcp`, interleaved call by call on two servers started once, medians: a click on a
   button that does nothing, typing into a field, and a click whose page navigates 300 ms later
   (both must report the page it landed on).

Both hosts run at their defaults, settle included (issue 45: no `--timeout-settle 0` for either):
what an action waits for after it is part of what a caller pays. Both with Debian's Chromium,
headless and isolated.

    python benchmarks/host_bench.py --only startup     # just item 2 (--runs sets the count)
    python benchmarks/host_bench.py --only form        # just item 3
    python benchmarks/host_bench.py --only overhead    # just item 1
    python benchmarks/host_bench.py --only recording   # just item 5
    python benchmarks/host_bench.py --only actions     # just item 6
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
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

from host.browsers.chromium_features import chromium_launch_args  # noqa: E402
from host.calls.core import Host  # noqa: E402
from host.settings.config import DEFAULT_BROWSER_ARGS, HostConfig  # noqa: E402
from host.trails.trail import read_trail  # noqa: E402
from host.transports.mcp_server import build_server  # noqa: E402

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
ACTIONS = (
    "<title>actions</title><button id=noop>Nothing</button><input id=field aria-label=Field>"
    "<button id=late onclick=\"setTimeout(() => { location.href = '/landed' }, 300)\">Late</button>"
)
LANDED = "<title>landed</title><h1>Landed</h1>"
OURS_STDIO = [sys.executable, "-m", "host", "serve", "--stdio"]
THEIRS_STDIO = [
    "node",
    str(PLAYWRIGHT_MCP),
    "--headless",
    "--isolated",
    "--no-sandbox",
    "--executable-path",
    "/usr/bin/chromium",
]


def serve_form() -> str:
    import http.server

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            body = {"/actions": ACTIONS, "/landed": LANDED}.get(path, FORM).encode()
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)  # a browser that was closed meanwhile is no error

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
            await host.call("bench", "web_evaluate", {"script": "1+1"})
            await client.call_tool("web_evaluate", {"script": "1+1"})
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


class StdioPeer:
    """A server spawned with pipes, spoken to in bare JSON-RPC lines (one request at a time)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0

    @classmethod
    async def spawn(cls, command: list[str], cwd: Path | str) -> StdioPeer:
        process = await asyncio.create_subprocess_exec(
            *command,
            cwd=cwd,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            limit=1 << 24,
        )
        return cls(process)

    def _send(self, message: dict[str, object]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())

    async def request(self, method: str, params: dict[str, object]) -> dict[str, object]:
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            line = await self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the server exited before answering {method}")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return dict(answer["result"])

    async def handshake(self) -> None:
        await self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "host-bench", "version": "1"},
            },
        )
        self._send({"method": "notifications/initialized"})

    async def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()


async def start_times(
    command: list[str], cwd: Path | str, tool: str, url: str
) -> tuple[float, float]:
    """Seconds from the spawn to the first `tools/list` answered, and to the first navigate
    answered (after the handshake and `tools/list`, as a client does)."""
    start = time.perf_counter()
    peer = await StdioPeer.spawn(command, cwd)
    try:
        await peer.handshake()
        listed = await peer.request("tools/list", {})
        listed_at = time.perf_counter() - start
        assert any(t["name"] == tool for t in listed["tools"]), f"{tool} is not listed"  # type: ignore[attr-defined]
        result = await peer.request("tools/call", {"name": tool, "arguments": {"url": url}})
        navigated_at = time.perf_counter() - start
        assert not result.get("isError"), result
    finally:
        await peer.close()
    return listed_at, navigated_at


OURS_DIR = REPO
"""Where this host runs from (`--ours-dir`: another checkout, for a before/after comparison)."""


PLAIN_SCRIPT = """
import asyncio, json, sys
from playwright.async_api import async_playwright
async def main():
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=json.loads(sys.argv[2]))
        page = await (await browser.new_context()).new_page()
        await page.goto(sys.argv[1])
        print(await page.title(), flush=True)
        await browser.close()
asyncio.run(main())
"""
"""The least a Python host does before its first navigate is answered: start Python and
Playwright's driver, launch Chromium (with the host's flags), open a context and a page, go."""


async def plain_time(url: str) -> float:
    """Seconds from the spawn of PLAIN_SCRIPT to its navigation done (its title printed)."""
    args = json.dumps(chromium_launch_args(DEFAULT_BROWSER_ARGS))
    start = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PLAIN_SCRIPT, url, args, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    line = await process.stdout.readline()
    done = time.perf_counter() - start
    await process.wait()
    assert line.strip() == b"form", line
    return done


async def startup(url: str, runs: int) -> dict[str, list[float]]:
    """Start times of this host (default toolset), of @playwright/mcp and of PLAIN_SCRIPT,
    alternating runs."""
    workdir = tempfile.mkdtemp(prefix="host-bench-")  # @playwright/mcp writes snapshots to its cwd
    times: dict[str, list[float]] = {
        key: [] for key in ("ours_list", "ours_nav", "theirs_list", "theirs_nav", "plain_nav")
    }
    for _ in range(runs):
        times["plain_nav"].append(await plain_time(url))
        listed, navigated = await start_times(OURS_STDIO, OURS_DIR, "browser_navigate", url)
        times["ours_list"].append(listed)
        times["ours_nav"].append(navigated)
        listed, navigated = await start_times(THEIRS_STDIO, workdir, "browser_navigate", url)
        times["theirs_list"].append(listed)
        times["theirs_nav"].append(navigated)
    return times


async def form_script(params: StdioServerParameters, url: str, ours: bool) -> float:
    start = time.perf_counter()  # the spawn and the handshake are part of the task
    async with Client(params, mode="legacy") as client:
        # The same calls, as a drop-in's caller makes them, on both.
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
    ours = StdioServerParameters(command=OURS_STDIO[0], args=OURS_STDIO[1:], cwd=str(OURS_DIR))
    theirs = StdioServerParameters(command=THEIRS_STDIO[0], args=THEIRS_STDIO[1:], cwd=workdir)
    mine, other = [], []
    for _ in range(runs):
        mine.append(await form_script(ours, url, True))
        other.append(await form_script(theirs, url, False))
    return mine, other


async def timed(client: Client, tool: str, args: dict[str, object]) -> tuple[float, str]:
    start = time.perf_counter()
    result = await client.call_tool(tool, args)
    elapsed = time.perf_counter() - start
    text = "".join(getattr(block, "text", "") for block in result.content)
    assert not result.is_error, text[:500]
    return elapsed, text


async def single_actions(url: str, reps: int) -> dict[str, dict[str, list[float]]]:
    """Seconds per call of each action on this host and on @playwright/mcp, call by call."""
    page = url.rsplit("/", 1)[0] + "/actions"
    workdir = tempfile.mkdtemp(prefix="host-bench-")
    ours = StdioServerParameters(command=OURS_STDIO[0], args=OURS_STDIO[1:], cwd=str(OURS_DIR))
    theirs = StdioServerParameters(command=THEIRS_STDIO[0], args=THEIRS_STDIO[1:], cwd=workdir)
    times: dict[str, dict[str, list[float]]] = {
        kind: {"ours": [], "theirs": []} for kind in ("noop click", "typing", "late navigation")
    }
    async with Client(ours, mode="legacy") as mine, Client(theirs, mode="legacy") as other:
        clients = {"ours": mine, "theirs": other}
        for client in clients.values():
            await client.call_tool("browser_navigate", {"url": page})
        for rep in range(reps):
            for who, client in clients.items():
                elapsed, _ = await timed(client, "browser_click", {"target": "#noop"})
                times["noop click"][who].append(elapsed)
                elapsed, _ = await timed(
                    client, "browser_type", {"target": "#field", "text": f"text {rep}"}
                )
                times["typing"][who].append(elapsed)
                await client.call_tool("browser_navigate", {"url": page})
                elapsed, text = await timed(client, "browser_click", {"target": "#late"})
                assert "/landed" in text, f"{who} did not report the late navigation: {text[:300]}"
                times["late navigation"][who].append(elapsed)
                await client.call_tool("browser_navigate", {"url": page})
    return times


def print_actions(url: str, reps: int) -> None:
    times = asyncio.run(single_actions(url, reps))
    print(f"single actions over stdio (SDK client): {reps} each, interleaved call by call")
    for kind, target in (("noop click", 0.3), ("typing", 1.0), ("late navigation", None)):
        ours, theirs = times[kind]["ours"], times[kind]["theirs"]
        mine, other = statistics.median(ours), statistics.median(theirs)
        print(f"{kind + ', this host, median':58} {mine:9.3f} s")
        print(f"{kind + ', @playwright/mcp, median':58} {other:9.3f} s")
        bound = f"<= {target} x" if target is not None else "(both reported it)"
        print(f"{kind + ': ours / theirs':58} {mine / other:9.2f} x    {bound}")


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
            await host.call(f"s{i}", "web_evaluate", {"script": "1"})
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
    print(f"{'fill/click by ref, not recording, median':58} {plain * ms:9.3f} ms")
    print(f"{'fill/click by ref, recording, median':58} {recorded * ms:9.3f} ms")
    print(f"{'recording / not recording':58} {recorded / plain:9.3f} x    <= 1.05 x")


def compile_sources() -> None:
    """Bytecode for the host measured and the generated package, written now: with
    PYTHONDONTWRITEBYTECODE set (as here) a stale or missing `.pyc` is never replaced, and every
    start would also measure compiling the host."""
    import compileall

    for folder in (OURS_DIR / "host", REPO / "generated" / "python"):
        compileall.compile_dir(folder, quiet=1)


def ratio_line(label: str, ours: list[float], theirs: list[float], unit: str = "s") -> None:
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"{label + ', this host, median':58} {mine:9.3f} {unit}    runs {_runs(ours)}")
    print(f"{label + ', @playwright/mcp, median':58} {other:9.3f} {unit}    runs {_runs(theirs)}")
    print(f"{label + ': ours / theirs':58} {mine / other:9.2f} x    <= 1 x")


def _runs(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def print_overhead(calls: int) -> None:
    overhead = asyncio.run(call_overhead(calls))
    added = overhead["hosted_total"] / overhead["direct_total"] - 1
    added_mcp_ms = (overhead["mcp_median"] - overhead["direct_mcp_median"]) * 1000
    ms = 1000.0
    print(f"calls per measurement: {calls} (web_evaluate of 1+1), blocks of 100 interleaved")
    print(f"{'direct page.evaluate, median':58} {overhead['direct_median'] * ms:9.3f} ms")
    print(f"{'host.call in process, median':58} {overhead['hosted_median'] * ms:9.3f} ms")
    print(f"{'added cost in process (total time ratio)':58} {added * 100:9.2f} %    <= 5 %")
    print(f"{'MCP in memory (Python SDK client), median':58} {overhead['mcp_median'] * ms:9.3f} ms")
    print(
        f"{'MCP overhead per call over direct Playwright, median':58} {added_mcp_ms:9.3f} ms   <= 1 ms"
    )


def print_startup(url: str, runs: int) -> None:
    times = asyncio.run(startup(url, runs))
    print(f"start over stdio: {runs} runs each, alternating (this host: default toolset)")
    ratio_line("spawn -> tools/list answered", times["ours_list"], times["theirs_list"])
    ratio_line("spawn -> first navigate answered", times["ours_nav"], times["theirs_nav"])
    print(f"{'first navigate target':58} {'':9}      <= 0.8 x")
    plain, theirs = statistics.median(times["plain_nav"]), statistics.median(times["theirs_nav"])
    print(
        f"{'spawn -> navigated, plain Python Playwright, median':58} {plain:9.3f} s    runs "
        f"{_runs(times['plain_nav'])}"
    )
    print(f"{'plain Python Playwright / @playwright/mcp':58} {plain / theirs:9.2f} x")


def print_form(url: str, runs: int) -> None:
    ours, theirs = asyncio.run(side_by_side(url, runs))
    print(f"form task over stdio, spawn to last answer: {runs} runs each, alternating")
    ratio_line("form task (22 calls, start included)", ours, theirs)
    print(f"{'form task target':58} {'':9}      <= 0.6 x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7, help="start and form task: runs of each")
    parser.add_argument("--rounds", type=int, default=100, help="recording: fill+click rounds")
    parser.add_argument("--reps", type=int, default=15, help="single actions: calls of each")
    parser.add_argument(
        "--only",
        choices=("overhead", "startup", "form", "recording", "actions"),
        help="run one measurement only",
    )
    parser.add_argument(
        "--ours-dir",
        type=Path,
        default=REPO,
        help="run this host's stdio server from another checkout's host/ (startup, form)",
    )
    options = parser.parse_args()
    global OURS_DIR
    OURS_DIR = options.ours_dir.resolve()
    compile_sources()
    url = serve_form()
    if options.only in (None, "overhead"):
        print_overhead(options.calls)
    if options.only in (None, "startup"):
        print_startup(url, options.runs)
    if options.only in (None, "form"):
        print_form(url, options.runs)
    if options.only is None:
        ms = 1000.0
        ready = statistics.median(ready_time() for _ in range(3))
        creation, memory = asyncio.run(sessions_and_memory(url))
        print(f"{'start until /healthz answers (HTTP), median':58} {ready:9.3f} s    <= 1 s")
        print(f"{'session creation (browser running), median':58} {creation * ms:9.1f} ms")
        print(f"{'memory per idle session (PSS, all processes)':58} {memory:9.1f} MiB")
    if options.only in (None, "recording"):
        print_recording(url, options.rounds)
    if options.only in (None, "actions"):
        print_actions(url, options.reps)


if __name__ == "__main__":
    main()

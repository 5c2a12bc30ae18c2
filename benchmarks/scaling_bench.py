"""Benchmark of scaling out (not a test): what a session costs, what a second browser endpoint
gives the executor, and from those a model for many concurrent agent sessions.

    python benchmarks/scaling_bench.py [--sessions 20] [--actions 24] [--rounds 4]
                                       [--agents 1000] [--node-gib 16] [--node-cores 8]

1. Per session, on a host in this process whose browser is a Playwright browser server's (as
   when scaled out): N sessions opened one after another, each navigating to a form and filling
   one field (an agent's first steps). PSS (proportional set size, so shared pages count once)
   of the host's side (this process and its Playwright driver) and of the browser's side (the
   server's process tree), before and after, divided by N; and the CPU seconds each side spent
   opening them, divided by N.
2. The executor (`python -m host executor`, concurrency 4) with one Playwright browser server
   as its `--browser-endpoint`, with two, and with the first one named twice (placement over a
   pool of two without a second browser: the pool's own cost), rounds in rotating order,
   medians of the actions per second and their ratios to one. The servers are
   `chromium.launchServer` of the pinned playwright-core, on this machine: the two-endpoint
   ratio shows what a second browser costs or gains when both share these cores (on two
   machines each brings its own). The CPU per action is split into the executor's share (its
   process tree: Python, the driver) and the browsers' (the servers' trees).
   Then each session makes two more calls (a fill, a click), twice round: the CPU of a call in
   a session already open, and the host's share of it.
3. The model: from those figures and the node size given, how many sessions a browser node
   holds by memory and by CPU (at `--calls-per-minute` per session), how many nodes `--agents`
   concurrent sessions need, which limit binds first, and what the hosts themselves cost.

The figures are this machine's; the model says which inputs it used, so that it can be redone
with another machine's figures (docs/SCALING.md quotes one run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from executor_bench import Service, serve_pages, tree_cpu  # noqa: E402
from host_bench import pss_kib, tree  # noqa: E402

from host.calls.core import Host  # noqa: E402
from host.settings.config import DEFAULT_BROWSER_ARGS, HostConfig  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PLAYWRIGHT_CORE = REPO / "node_modules" / "playwright-core"
LAUNCH_SERVER = REPO / "scripts" / "launch-server.js"
MIB = 1024


@dataclass
class SessionCost:
    host_mib: float
    browser_mib: float
    browser_base_mib: float
    cpu_s: float
    host_cpu_s: float
    call_cpu_s: float
    """CPU seconds (all processes) of one call in a session already open (a fill or a click)."""
    host_call_cpu_s: float


async def session_cost(base: str, count: int) -> SessionCost:
    """Sessions of a host in this process whose browser is a browser server's, as when scaled
    out: the host's side is this process and its Playwright driver, the browser's the server's
    process tree."""
    me, server = os.getpid(), BrowserServer()
    browser = server.process.pid

    def host_side() -> set[int]:  # this process and its driver; the server is a child too
        return tree(me) - tree(browser)

    def host_cpu() -> float:
        return tree_cpu(me) - tree_cpu(browser)

    config = HostConfig(max_sessions=count + 4, browser_endpoints=(server.ws,))
    try:
        async with Host(config) as host:
            await host.call("warm", "web_navigate", {"url": base + "/form"})
            browser_before, host_before = pss_kib(tree(browser)), pss_kib(host_side())
            cpu_before, own_before = tree_cpu(browser), host_cpu()
            for number in range(count):
                key = f"agent{number}"
                await host.call(key, "web_navigate", {"url": base + "/form"})
                await host.call(key, "web_locator_fill", {"selector": "#name", "value": key})
            cpu, own = tree_cpu(browser) - cpu_before, host_cpu() - own_before
            await asyncio.sleep(1)  # let the renderers settle before reading memory
            browser_after, host_after = pss_kib(tree(browser)), pss_kib(host_side())
            # An agent's later calls in the sessions now open: a fill and a click, twice round.
            calls_before, calls_own = tree_cpu(browser), host_cpu()
            calls = 0
            for _ in range(2):
                for number in range(count):
                    key = f"agent{number}"
                    await host.call(key, "web_locator_fill", {"selector": "#email", "value": key})
                    await host.call(key, "web_locator_click", {"selector": "#pw"})
                    calls += 2
            call_cpu, call_own = tree_cpu(browser) - calls_before, host_cpu() - calls_own
    finally:
        server.stop()
    return SessionCost(
        host_mib=(host_after - host_before) / count / MIB,
        browser_mib=(browser_after - browser_before) / count / MIB,
        browser_base_mib=browser_before / MIB,
        cpu_s=(cpu + own) / count,
        host_cpu_s=own / count,
        call_cpu_s=(call_cpu + call_own) / calls,
        host_call_cpu_s=call_own / calls,
    )


class BrowserServer:
    """`chromium.launchServer` of the pinned playwright-core in a Node process."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [
                "node",
                str(LAUNCH_SERVER),
                str(PLAYWRIGHT_CORE),
                CHROMIUM,
                json.dumps(list(DEFAULT_BROWSER_ARGS)),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        self.ws = self.process.stdout.readline().strip()
        if not self.ws.startswith("ws://"):
            raise SystemExit(f"the browser server did not start: {self.ws!r}")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


@dataclass
class Throughput:
    rates: list[float]
    service_cpu: list[float]
    browser_cpu: list[float]

    def median(self) -> float:
        return statistics.median(self.rates)


def executor_rounds(
    base: str, actions: int, rounds: int, concurrency: int
) -> dict[str, Throughput]:
    """Three executors, rounds in rotating order: `one` on server A; `pooled` on server A named
    twice (the pool's placement without a second browser); `two` on servers B and C."""
    servers = [BrowserServer() for _ in range(3)]
    a, b, c = (server.ws for server in servers)
    sides = {
        "one": ([servers[0]], Service(concurrency, ("--browser-endpoint", a))),
        "pooled": (
            [servers[0]],
            Service(concurrency, ("--browser-endpoint", a, "--browser-endpoint", a + "?max=999")),
        ),
        "two": (
            servers[1:],
            Service(concurrency, ("--browser-endpoint", b, "--browser-endpoint", c)),
        ),
    }
    found = {name: Throughput([], [], []) for name in sides}
    names = list(sides)
    try:
        for _, service in sides.values():
            service.round(base, 2 * concurrency, concurrency)  # warm-up: first contexts
        for number in range(rounds):
            for name in names[number % 3 :] + names[: number % 3]:
                used, service = sides[name]
                service_cpu = tree_cpu(service.process.pid)
                browser_cpu = sum(tree_cpu(s.process.pid) for s in used)
                elapsed, _ = service.round(base, actions, concurrency)
                found[name].rates.append(actions / elapsed)
                found[name].service_cpu.append(
                    (tree_cpu(service.process.pid) - service_cpu) / actions
                )
                found[name].browser_cpu.append(
                    (sum(tree_cpu(s.process.pid) for s in used) - browser_cpu) / actions
                )
    finally:
        for _, service in sides.values():
            service.stop()
        for server in servers:
            server.stop()
    return found


def model(args: argparse.Namespace, cost: SessionCost, executor: tuple[float, float]) -> None:
    """Agent sessions on browser nodes (memory per session, CPU per call), the hosts in front of
    them, and what the executor's context-per-action costs by comparison."""
    usable_mib = args.node_gib * 1024 * args.headroom
    by_memory = max(0, math.floor((usable_mib - cost.browser_base_mib) / cost.browser_mib))
    calls_per_s = args.calls_per_minute / 60
    browser_call_cpu = cost.call_cpu_s - cost.host_call_cpu_s
    by_cpu = math.floor(args.node_cores * args.headroom / (calls_per_s * browser_call_cpu))
    per_node = max(1, min(by_memory, by_cpu))
    nodes = math.ceil(args.agents / per_node)
    binding = "memory" if by_memory <= by_cpu else "CPU"
    host_cores = args.agents * calls_per_s * cost.host_call_cpu_s
    burst_cores = args.agents * cost.cpu_s / args.ramp_s
    executor_service, executor_browser = executor
    print(
        f"\n3. model for {args.agents} concurrent agent sessions, each making "
        f"{args.calls_per_minute:g} calls a minute, on browser nodes of {args.node_gib:g} GiB and "
        f"{args.node_cores} cores used to {args.headroom:.0%}:\n"
        f"   a node holds {by_memory} sessions by memory ({cost.browser_mib:.1f} MiB each over a "
        f"{cost.browser_base_mib:.0f} MiB browser) and {by_cpu} by CPU "
        f"({browser_call_cpu * 1000:.0f} ms of browser CPU per call)\n"
        f"   -> {nodes} browser nodes; {binding} binds first\n"
        f"   hosts: {args.agents * cost.host_mib / 1024:.2f} GiB of session state "
        f"({cost.host_mib * 1024:.0f} KiB each), {host_cores:.1f} cores for the calls "
        f"({cost.host_call_cpu_s * 1000:.1f} ms of host CPU per call), and at --max-sessions "
        f"{args.host_sessions} {math.ceil(args.agents / args.host_sessions)} host processes\n"
        f"   opening all {args.agents} sessions within {args.ramp_s:g} s: {burst_cores:.1f} cores "
        f"({cost.cpu_s:.2f} CPU-s each, a new browser context and its first page)\n"
        f"   the executor opens a context per action: {executor_browser:.2f} browser and "
        f"{executor_service:.3f} executor CPU-s per action, so a core serves "
        f"{1 / (executor_browser + executor_service):.2f} actions/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20, help="sessions opened (default 20)")
    parser.add_argument("--actions", type=int, default=24, help="actions per round (default 24)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of each side (default 4)")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--node-gib", type=float, default=16)
    parser.add_argument("--node-cores", type=int, default=8)
    parser.add_argument("--headroom", type=float, default=0.75, help="share of a node used")
    parser.add_argument("--calls-per-minute", type=float, default=6.0, help="per agent session")
    parser.add_argument("--host-sessions", type=int, default=64, help="--max-sessions per host")
    parser.add_argument("--ramp-s", type=float, default=300.0, help="time to open all sessions")
    args = parser.parse_args()
    if not PLAYWRIGHT_CORE.is_dir():
        raise SystemExit(
            "node_modules/playwright-core is missing: run scripts/setup.sh --with-test-tools"
        )
    base = serve_pages()
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    started = time.perf_counter()
    cost = asyncio.run(session_cost(base, args.sessions))
    print(
        f"1. per session ({args.sessions} opened, each navigating and filling a field): "
        f"browser {cost.browser_mib:.1f} MiB PSS (over a {cost.browser_base_mib:.0f} MiB browser "
        f"with one session), host and its driver {cost.host_mib * 1024:.0f} KiB; "
        f"{cost.cpu_s:.2f} CPU-s to open "
        f"(host's share {cost.host_cpu_s:.2f}); a later call (fill, click) {cost.call_cpu_s * 1000:.0f} "
        f"ms CPU (host's share {cost.host_call_cpu_s * 1000:.1f} ms)"
    )
    found = executor_rounds(base, args.actions, args.rounds, args.concurrency)
    one = found["one"]

    def against_one(name: str) -> str:
        side = found[name]
        pairs = [b / a for a, b in zip(one.rates, side.rates, strict=True)]
        return (
            f"{side.median():.2f} actions/s ({min(side.rates):.2f}-{max(side.rates):.2f}), "
            f"{side.median() / one.median():.2f}x one (rounds {min(pairs):.2f}-{max(pairs):.2f}); "
            f"browser CPU {statistics.median(side.browser_cpu):.3f} s per action"
        )

    service_cpu = statistics.median(one.service_cpu)
    browser_cpu = statistics.median(one.browser_cpu)
    print(
        f"2. executor at concurrency {args.concurrency}, {args.actions} actions x {args.rounds} "
        f"rounds:\n"
        f"   one endpoint      {one.median():.2f} actions/s ({min(one.rates):.2f}-"
        f"{max(one.rates):.2f}); CPU per action: executor {service_cpu:.3f} s, browser "
        f"{browser_cpu:.3f} s\n"
        f"   two endpoints     {against_one('two')}\n"
        f"   one named twice   {against_one('pooled')} (the pool's own cost)"
    )
    model(args, cost, (service_cpu, browser_cpu))
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()

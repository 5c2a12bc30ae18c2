"""Benchmark of fairness between sessions (not a test): one host, one victim, one attacker.

    python benchmarks/fairness_bench.py [--seconds 8] [--victim-calls 40] [--only NAME]

A victim session reads a text from its page in a loop: first alone (its idle median), then
while another session of the same host attacks with each hostile page or call in turn (a
console flood from the page and from a worker, uncaught errors, requests, a popup flood, an
`evaluate` of 100 MB, the `content` of a 200,000-node page, a script that loops forever). For
each attack it prints the victim's median and 95th percentile during the attack, the ratio of
that median to the idle median (the target is at most 2), how many attack rounds ran, and
whether a session opened during the attack worked. A last row, for scale and outside the
target, is a neighbour that only navigates as fast as it can: on two cores that costs the victim
more than any attack, because it is real work. Everything runs in one process and one event
loop, as the HTTP host serves its sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))  # the hostile pages the tests use, served the same way

from host_tests.hostile_pages import HostilePages, start_hostile_pages  # noqa: E402

from host.calls.core import Host  # noqa: E402
from host.settings.config import HostConfig  # noqa: E402

VICTIM = "victim"


@dataclass
class Attack:
    """One way a session attacks: a page to open, then one round of calls (repeated; none for a
    page that attacks by itself)."""

    name: str
    page: str
    round: list[tuple[str, dict[str, object]]]
    reference: bool = False  # shown for scale, not one of the attacks the target is about


ATTACKS = [
    # Pages that flood by themselves, without end: the attacker opens one and waits.
    Attack("console flood (page)", "/endless-console", []),
    Attack("console flood (worker)", "/endless-worker", []),
    Attack("uncaught error flood", "/endless-errors", []),
    Attack("request flood", "/endless-requests", []),
    # Calls that flood, or produce or wait for too much, repeated as fast as they return.
    Attack("popup flood (60 windows)", "/popups", [("web_click", {"selector": "#go"})]),
    Attack(
        "evaluate returning 100 MB",
        "/plain",
        [("web_evaluate", {"script": "'x'.repeat(100 * 1024 * 1024)"})],
    ),
    Attack("content of 200,000 nodes", "/huge-dom", [("web_content", {})]),
    Attack("script looping forever", "/busy", [("web_evaluate", {"script": "while (true) {}"})]),
    # Not an attack: a neighbour that navigates as fast as it can (what sharing two cores costs).
    Attack("busy neighbour (reloads)", "/plain", [("web_reload", {})], reference=True),
]


async def victim_calls(host: Host, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        outcome = await host.call(VICTIM, "web_locator_textContent", {"selector": "#p"})
        times.append(time.perf_counter() - start)
        assert outcome.ok and outcome.value == "plain page", outcome
    return times


async def attacker(host: Host, pages: HostilePages, attack: Attack, stop: asyncio.Event) -> int:
    key = "attacker-" + attack.page.strip("/")
    await host.call(key, "web_navigate", {"url": pages.url(attack.page)})
    rounds = 0
    while not stop.is_set():
        for tool, args in attack.round:
            await host.call(key, tool, args)  # errors (timeouts, refusals) are the point
        if not attack.round:
            await asyncio.sleep(0.5)  # the page floods by itself
        rounds += 1
    await host.sessions.drop(key, "the attack ended")
    return rounds


async def fresh_session_works(host: Host, pages: HostilePages, name: str) -> bool:
    key = "fresh-" + name.split()[0]
    opened = await host.call(key, "web_navigate", {"url": pages.url("/plain")})
    read = await host.call(key, "web_locator_textContent", {"selector": "#p"})
    await host.sessions.drop(key, "checked")
    if opened.ok and read.ok and read.value == "plain page":
        return True
    print(f"  a fresh session failed: {opened.text()[:300]} / {read.text()[:300]}")
    return False


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


async def during(
    host: Host, pages: HostilePages, attack: Attack, seconds: float, count: int
) -> tuple[list[float], int, bool]:
    stop = asyncio.Event()
    attacking = asyncio.ensure_future(attacker(host, pages, attack, stop))
    await asyncio.sleep(1.0)  # let the attack start before the victim is measured
    times: list[float] = []
    ends = time.monotonic() + seconds
    while time.monotonic() < ends or len(times) < count:
        times += await victim_calls(host, 1)
    fresh = await fresh_session_works(host, pages, attack.name)
    stop.set()
    rounds = await attacking
    return times, rounds, fresh


async def main(seconds: float, count: int, only: str) -> None:
    pages, server = start_hostile_pages()
    # Short deadlines so that the looping script is abandoned within the measured window.
    config = HostConfig(navigation_timeout=5.0, toolsets=("default", "web_framework"))
    try:
        async with Host(config) as host:
            await host.call(VICTIM, "web_navigate", {"url": pages.url("/plain")})
            await victim_calls(host, 50)  # warm up
            idle = await victim_calls(host, count * 5)
            idle_median = statistics.median(idle)
            print(f"victim idle: median {idle_median * 1000:.2f} ms, p95 {p95(idle) * 1000:.2f} ms")
            print(f"{'attack':32} {'median ms':>10} {'p95 ms':>9} {'ratio':>6} {'rounds':>6} fresh")
            worst = 0.0
            for attack in [a for a in ATTACKS if only in a.name]:
                times, rounds, fresh = await during(host, pages, attack, seconds, count)
                median = statistics.median(times)
                ratio = median / idle_median
                if not attack.reference:
                    worst = max(worst, ratio)
                print(
                    f"{attack.name:32} {median * 1000:10.2f} {p95(times) * 1000:9.2f}"
                    f" {ratio:6.2f} {rounds:6d} {'ok' if fresh else 'FAILED'}"
                )
            print(f"worst median ratio of the attacks: {worst:.2f} (target: at most 2)")
    finally:
        server.stop()


def run(seconds: float, count: int, only: str = "") -> None:
    asyncio.run(main(seconds, count, only))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each attack")
    parser.add_argument("--victim-calls", type=int, default=40, help="fewest victim calls")
    parser.add_argument("--only", default="", help="run the attacks whose name holds this")
    arguments = parser.parse_args()
    run(arguments.seconds, arguments.victim_calls, arguments.only)

"""Benchmark of snapshots of large pages (not a test): what a snapshot costs as a page grows, and
what the host answers when a page is too large to snapshot within the action timeout.

    python benchmarks/snapshot_bench.py [--sizes 1000,4000,16000,50000] [--action-timeout 5]

For each size, a page of that many buttons (built by the page's own script) is opened in one
host session, then, through `Host.call`, in process:

1. `browser_snapshot`: how long it took to answer, whether it is a snapshot (its length) or the
   `timeout` error of a snapshot past the action timeout;
2. the next call (`web_evaluate` of a marker set in the page before the snapshot): how long it
   took, and whether it ran in the same tab with the marker still there. The snapshot's own script
   is stopped in the page past the timeout (host/calls/page_snapshot.py), so this stays short;
   before, the tab was replaced by a blank one, or the page stayed busy for minutes.

With `--raw`, Playwright's own `page.aria_snapshot(mode="ai")` is timed too, without a timeout,
for sizes up to `--raw-max` (it grows faster than the page: minutes at 50,000).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from local_server import PageHandler, serve  # noqa: E402

from host.calls.core import Host  # noqa: E402
from host.settings.config import HostConfig  # noqa: E402

PAGE = (
    "<title>n={n}</title><div id=root></div><script>const parts = [];"
    "for (let i = 0; i < {n}; i++) parts.push('<button id=b' + i + '>button ' + i + '</button>');"
    "document.getElementById('root').innerHTML = parts.join('');</script>"
)


class Handler(PageHandler):
    def do_GET(self) -> None:
        size = self.path.strip("/")
        if not size.isdigit():  # the browser's favicon
            self._send(404, "text/plain", b"")
            return
        self._send(200, "text/html; charset=utf-8", PAGE.replace("{n}", size).encode())


async def one_size(host: Host, origin: str, size: int, raw: bool) -> dict[str, object]:
    key = f"size-{size}"
    opened = await host.call(key, "web_navigate", {"url": f"{origin}/{size}", "timeout": 120_000})
    assert opened.ok, opened.text()
    await host.call(key, "web_evaluate", {"script": "window.marker = 'kept'; 1"})
    session = host.sessions.get(key)
    assert session is not None and session.current is not None
    page = session.current.page
    started = time.perf_counter()
    snapshot = await host.call(key, "browser_snapshot", {})
    snapshot_s = time.perf_counter() - started
    value = snapshot.value if isinstance(snapshot.value, dict) else {}
    started = time.perf_counter()
    after = await host.call(key, "web_evaluate", {"script": "window.marker"})
    after_s = time.perf_counter() - started
    session = host.sessions.get(key)
    same = session is not None and session.current is not None and session.current.page is page
    row: dict[str, object] = {
        "size": size,
        "snapshot_s": snapshot_s,
        "answer": "snapshot" if snapshot.ok else (snapshot.error.code if snapshot.error else "?"),
        "chars": len(str(value.get("snapshot", ""))),
        "next_call_s": after_s,
        "same_tab": same and after.ok and after.value == "kept",
    }
    if raw:
        started = time.perf_counter()
        text = await page.aria_snapshot(mode="ai", timeout=0)
        row["raw_s"] = time.perf_counter() - started
        row["raw_chars"] = len(text)
    return row


async def run(sizes: list[int], action_timeout: float, raw_max: int | None) -> None:
    server = serve(Handler)
    config = HostConfig(action_timeout=action_timeout, settle_timeout=0)
    try:
        async with Host(config) as host:
            print(
                f"action timeout {action_timeout:g} s; Chromium {'(raw: Playwright alone)' if raw_max else ''}"
            )
            print("elements  snapshot answer      took    chars   next call  same tab, marker kept")
            for size in sizes:
                row = await one_size(
                    host, server.origin, size, raw_max is not None and size <= raw_max
                )
                print(
                    f"{size:>8}  {row['answer']:<15} {row['snapshot_s']:>6.2f} s {row['chars']:>8}"
                    f"  {row['next_call_s']:>7.2f} s  {row['same_tab']}"
                    + (
                        f"   raw aria_snapshot {row['raw_s']:.2f} s ({row['raw_chars']} chars)"
                        if "raw_s" in row
                        else ""
                    )
                )
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,4000,16000,50000")
    parser.add_argument("--action-timeout", type=float, default=5.0)
    parser.add_argument("--raw", action="store_true", help="time Playwright's snapshot alone too")
    parser.add_argument("--raw-max", type=int, default=16000)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    asyncio.run(run(sizes, args.action_timeout, args.raw_max if args.raw else None))


if __name__ == "__main__":
    main()

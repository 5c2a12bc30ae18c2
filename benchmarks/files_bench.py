"""Benchmark of files on request (not a test): what confinement costs, and a drop at the cap.

    python benchmarks/files_bench.py [--shots 200] [--drops 3]

1. A screenshot saved to a file, the way the host did it before issue 42 (`mkdir`, a free name
   found by probing `exists()`, `write_bytes`) against the confined write
   (`host.sessions.session_files.SessionFiles.save`: an `openat` walk with `O_NOFOLLOW`, an
   exclusive create), in one run, interleaved in blocks of 10 so drift hits both alike; each is
   timed with the screenshot it saves (what a `browser_take_screenshot` with a `filename` costs)
   and alone. Medians, and the ratio new / old.
2. `browser_drop` of a file exactly at the cap (`max_upload_bytes`, 10 MiB) through the host's own
   call path: the call's time (median of `--drops`), and the resident memory of the host's child
   processes (Chromium and the driver) before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import async_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from host.calls.core import Host  # noqa: E402
from host.sessions.session_files import SessionFiles  # noqa: E402
from host.settings.config import HostConfig  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PAGE = "<title>bench</title>" + "".join(f"<p>paragraph {i} of the page</p>" for i in range(60))
DROP_PAGE = """() => {
  document.body.innerHTML = '<div id=zone style="width:300px;height:200px">zone</div><p id=out></p>';
  const zone = document.getElementById('zone');
  zone.addEventListener('dragover', e => e.preventDefault());
  zone.addEventListener('drop', e => { e.preventDefault();
    document.getElementById('out').textContent = [...e.dataTransfer.files].map(f => f.size); });
}"""


def old_save(output: Path, folder: str, name: str, data: bytes) -> Path:
    """The write as it was before issue 42 (host/sessions/downloads.py `_free`, then write)."""
    directory = output / folder
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    candidate = directory / name
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    number = 1
    while candidate.exists():
        number += 1
        candidate = directory / (f"{stem} ({number}).{suffix}" if suffix else f"{name} ({number})")
    candidate.write_bytes(data)
    return candidate


async def screenshots(count: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        output = Path(scratch)
        files = SessionFiles(output, "bench")
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            page = await browser.new_page(viewport={"width": 1280, "height": 720})
            await page.set_content(PAGE)
            await page.screenshot()  # warm up
            whole: dict[str, list[float]] = {"old": [], "new": []}
            write: dict[str, list[float]] = {"old": [], "new": []}
            writers: dict[str, Callable[[str, bytes], Path]] = {
                "old": lambda name, data: old_save(output, "screenshots", name, data),
                "new": lambda name, data: files.save("screenshots", name, data),
            }
            size = 0
            for block in range(count // 10):
                for kind in ("old", "new") if block % 2 == 0 else ("new", "old"):
                    for i in range(10):
                        name = f"shot-{block}-{i}.png"
                        start = time.perf_counter()
                        data = await page.screenshot()
                        taken = time.perf_counter()
                        writers[kind](name, data)
                        done = time.perf_counter()
                        whole[kind].append(done - start)
                        write[kind].append(done - taken)
                        size = len(data)
            await browser.close()
    old, new = statistics.median(whole["old"]), statistics.median(whole["new"])
    old_w, new_w = statistics.median(write["old"]), statistics.median(write["new"])
    print(f"1. screenshot saved to a file ({count} of each, {size} bytes, medians)")
    print(f"   old path: {old * 1000:.2f} ms (write alone {old_w * 1e6:.0f} us)")
    print(f"   confined: {new * 1000:.2f} ms (write alone {new_w * 1e6:.0f} us)")
    print(f"   ratio confined / old: {new / old:.3f} (write alone {new_w / old_w:.2f})")
    # The screenshot is the same call in both; its time swings with the machine's load, so the
    # ratio is also given over one shared screenshot time: what the write adds to the call.
    shot = statistics.median(
        [w - x for kind in ("old", "new") for w, x in zip(whole[kind], write[kind], strict=True)]
    )
    print(
        f"   over the shared screenshot median ({shot * 1000:.2f} ms): "
        f"{(shot + new_w) / (shot + old_w):.4f}"
    )


def children_rss_kib() -> int:
    """Resident memory (KiB) of every process descended from this one."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/status") as status:
                found = [line for line in status if line.startswith("VmRSS:")]
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = int(found[0].split()[1]) if found else 0
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    return sum(rss.get(pid, 0) for pid in mine if pid != os.getpid())


async def drops(count: int) -> None:
    cap = HostConfig().max_upload_bytes
    with tempfile.TemporaryDirectory() as scratch:
        uploads = Path(scratch)
        (uploads / "at-cap.bin").write_bytes(os.urandom(cap))
        async with Host(HostConfig(upload_dirs=(uploads,))) as host:
            call: Callable[[str, object], Awaitable[object]]

            async def call(name: str, args: object) -> object:
                outcome = await host.call("bench", name, args)
                assert outcome.ok, outcome.text()
                return outcome.value

            await call("browser_navigate", {"url": "about:blank"})
            await call("browser_evaluate", {"function": DROP_PAGE})
            before = children_rss_kib()
            times = []
            for _ in range(count):
                start = time.perf_counter()
                await call("browser_drop", {"target": "#zone", "paths": ["at-cap.bin"]})
                times.append(time.perf_counter() - start)
            seen = await call("browser_evaluate", {"function": "() => out.textContent"})
            after = children_rss_kib()
    print(f"2. browser_drop of a file at the cap ({cap} bytes), {count} drops")
    print(f"   the page saw sizes {seen}; median {statistics.median(times) * 1000:.0f} ms a drop")
    print(
        f"   resident memory of Chromium and the driver: {before // 1024} MiB before, "
        f"{after // 1024} MiB after"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=200)
    parser.add_argument("--drops", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(screenshots(args.shots))
    asyncio.run(drops(args.drops))


if __name__ == "__main__":
    main()

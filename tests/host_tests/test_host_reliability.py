"""Reliability: concurrency without cross-talk, a killed browser, a vanished client, SIGTERM, CDP."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from host.calls.core import Host
from host_tests.host_helpers import (
    PYTHON,
    REPO,
    AppServer,
    LoopThread,
    ServedHost,
    alive,
    chromium_pids,
    descendants,
    host_config,
    remote_debugging_chromium,
    serve_host,
    wait_until,
)
from host_tests.test_host_scripting import callback


def health(host: ServedHost) -> dict[str, Any]:
    with urllib.request.urlopen(host.base + "/healthz", timeout=30) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_20_sessions_x_50_calls_over_streamable_http(served: ServedHost) -> None:
    async def one_client(number: int) -> list[Any]:
        seen = []
        async with Client(served.mcp_url) as client:
            await client.call_tool("web_evaluate", {"script": f"window.owner = {number}"})
            for _ in range(49):
                result = await client.call_tool(
                    "web_evaluate",
                    {
                        "script": "window.count = (window.count || 0) + 1; [window.owner, window.count]"
                    },
                )
                assert not result.is_error, result.content
                seen.append(result.structured_content["result"])  # type: ignore[index]
        return seen

    async def everyone() -> list[list[Any]]:
        return await asyncio.gather(*(one_client(n) for n in range(20)))

    results = asyncio.run(everyone())
    for number, seen in enumerate(results):
        assert seen == [[number, count] for count in range(1, 50)]
    wait_until(
        lambda: health(served)["sessions"] == 0, "the 20 sessions to close with their connections"
    )


def test_a_killed_browser_fails_the_calls_cleanly_and_the_next_ones_succeed(app: AppServer) -> None:
    loop = LoopThread()
    host = Host(host_config())
    others = chromium_pids(descendants(os.getpid()))  # browsers of hosts other tests started
    try:
        for key in ("k1", "k2"):
            assert loop.run(host.call(key, "web_navigate", {"url": app.url("/page")})).ok
        browsers = chromium_pids(descendants(os.getpid())) - others
        assert len(browsers) == 1
        pending = [
            asyncio.run_coroutine_threadsafe(
                host.call(key, "web_evaluate", {"script": "new Promise(() => {})"}), loop.loop
            )
            for key in ("k1", "k2")
        ]
        wait_until(
            lambda: all((s := host.sessions.get(k)) and s.inflight for k in ("k1", "k2")),
            "calls in flight",
        )
        os.kill(browsers.pop(), signal.SIGKILL)
        for future in pending:
            outcome = future.result(60)
            assert not outcome.ok and outcome.error is not None
            assert outcome.error.code == "browser_crashed", outcome.text()
            assert "relaunched" in outcome.error.message
        for key in ("k1", "k2"):
            again = loop.run(host.call(key, "web_evaluate", {"script": "1 + 1"}))
            assert again.ok and again.value == 2, again.text()
            assert "browser exited" in again.extras["session"]["reason"]
        assert host.pool.launches == 2
    finally:
        loop.run(host.close())
        loop.close()


CLIENT = """
import asyncio, sys
from mcp import Client
async def main():
    async with Client(sys.argv[1]) as client:
        print("connected", flush=True)
        await client.call_tool("evaluate", {"expression": "window.open(location.href) && new Promise(() => {})"})
asyncio.run(main())
"""


def test_a_client_that_vanishes_mid_call_leaks_no_pages(app: AppServer) -> None:
    # The navigation timeout bounds the never-ending call; it must outlast the popup's opening
    # on a loaded machine, and the cleanup below waits for it.
    host = serve_host("--idle-timeout", "2", "--navigation-timeout", "10")
    try:
        client = subprocess.Popen(
            [PYTHON, "-c", CLIENT, host.mcp_url], cwd=REPO, stdout=subprocess.PIPE, text=True
        )
        assert client.stdout is not None and client.stdout.readline().strip() == "connected"
        wait_until(lambda: health(host)["pages"] == 2, "the mid-call popup")
        client.kill()  # no goodbye: the TCP connection just drops
        client.wait(30)
        state = wait_until(
            lambda: (h := health(host))["contexts"] == 0 and h, "every context to close", 60
        )
        assert state["pages"] == 0 and state["sessions"] == 0
    finally:
        host.stop()


def test_sigterm_shuts_down_without_orphaned_browser_processes(app: AppServer) -> None:
    host = serve_host()
    assert callback(host, "s", "web_navigate", {"url": app.url("/page")})["success"]
    below = descendants(host.process.pid)
    assert chromium_pids(below), "a browser runs under the host"
    assert host.stop(signal.SIGTERM) == 0
    # The host has exited; the kernel may take a moment longer to reap what it ended.
    wait_until(lambda: not any(alive(pid) for pid in below), "the browser processes to exit", 30)


def test_cdp_endpoint_uses_a_browser_that_runs_elsewhere(app: AppServer, tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    others = chromium_pids(descendants(os.getpid()))  # before ours: its own name is one of them
    browser = remote_debugging_chromium(profile)
    loop = LoopThread()
    try:
        port_file = profile / "DevToolsActivePort"
        port = wait_until(
            lambda: port_file.exists() and port_file.read_text().split("\n")[0],
            "the debugging port",
        )
        host = Host(host_config(cdp_endpoint=f"http://127.0.0.1:{port}"))
        try:
            outcome = loop.run(host.call("cdp", "web_navigate", {"url": app.url("/page")}))
            assert outcome.ok, outcome.text()
            with urllib.request.urlopen(
                f"http://127.0.0.1:{port}/json/list", timeout=30
            ) as response:
                targets = json.loads(response.read())
            assert any(
                t["url"] == app.url("/page") for t in targets
            )  # the page lives in that browser
            # ... and the host launched none of its own
            assert chromium_pids(descendants(os.getpid())) - others == {browser.pid}
        finally:
            loop.run(host.close())
        assert browser.poll() is None  # disconnecting never kills a browser the host did not start
    finally:
        loop.close()
        browser.terminate()
        browser.wait(30)


pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::ResourceWarning")]

"""`executor --browser-endpoint` (repeatable): actions served from a pool of two real Playwright
browser servers, spread over both; one killed, the next actions land on the other and /healthz
reports it down. Marked `scaleout`."""

from __future__ import annotations

import subprocess

import pytest
from host_tests.browser_servers import BrowserServer, needs_node

from host_executor.helpers import PYTHON, REPO, ExecutorProcess, PageServer, wait_until

pytestmark = [pytest.mark.scaleout, pytest.mark.filterwarnings("ignore::ResourceWarning")]


def test_actions_spread_over_two_endpoints_and_fail_over(pages: PageServer) -> None:
    needs_node()
    servers = [BrowserServer(), BrowserServer()]
    process = ExecutorProcess(
        "--bind",
        "127.0.0.1:0",
        "--browser-endpoint",
        servers[0].ws,
        "--browser-endpoint",
        servers[1].ws + "?max=4",
    )
    try:
        for _ in range(4):
            reply = process.execute({"url": pages.url("/form")})
            assert reply.status == 200, reply.body
        health = process.get("/healthz")
        assert health.status == 200, health.body
        endpoints = health.body["endpoints"]
        assert [e["url"] for e in endpoints] == [servers[0].ws, servers[1].ws]
        # One after another, each action's session goes to the endpoint placed on least.
        assert [(e["up"], e["sessions"], e["placed"], e["limit"]) for e in endpoints] == [
            (True, 0, 2, None),
            (True, 0, 2, 4),
        ]
        servers[0].kill()
        for _ in range(2):
            reply = process.execute({"url": pages.url("/form")})
            assert reply.status == 200, reply.body
        endpoints = wait_until(
            lambda: (e := process.get("/healthz").body["endpoints"])[0]["up"] is False and e,
            "the killed endpoint reported down",
        )
        assert endpoints[1]["up"] is True and endpoints[1]["placed"] >= 4
        assert endpoints[0]["problem"]
    finally:
        assert process.stop() == 0, process.log()
        for server in servers:
            server.kill()


def test_a_bad_endpoint_stops_the_executor_at_start() -> None:
    def start(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [PYTHON, "-m", "host", "executor", "--bind", "127.0.0.1:0", *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )

    done = start("--browser-endpoint", "gopher://127.0.0.1:9/")
    assert done.returncode == 2 and "unknown scheme gopher://" in done.stderr
    done = start("--browser-endpoint", "ws://127.0.0.1:9/", "--engine", "firefox")
    assert done.returncode == 2 and "endpoints serve Chromium" in done.stderr
    done = start("--browser-endpoint", "ws://127.0.0.1:9/nothing")
    assert done.returncode == 2
    assert "error: --browser-endpoint ws://127.0.0.1:9/nothing: " in done.stderr

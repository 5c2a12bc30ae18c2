"""`executor --browser-endpoint` (repeatable): actions served from a pool of two real Playwright
browser servers, spread over both; one killed, the next actions land on the other and /healthz
reports it down. Marked `scaleout`."""

from __future__ import annotations

import subprocess

import pytest
from host_tests.browser_servers import BrowserServer, needs_node

from host_executor.helpers import PYTHON, REPO, ExecutorProcess, PageServer, wait_until

pytestmark = [
    pytest.mark.browser,
    pytest.mark.scaleout,
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
]


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

        # Each action's session closes after its answer: wait for the last one to close.
        def settled() -> list[dict[str, object]] | None:
            endpoints = process.get("/healthz").body["endpoints"]
            return endpoints if all(e["sessions"] == 0 for e in endpoints) else None

        endpoints = wait_until(settled, "the actions' sessions closed")
        assert [e["url"] for e in endpoints] == [servers[0].ws, servers[1].ws]
        # One after another, each action's session goes to the endpoint placed on least.
        assert [(e["up"], e["sessions"], e["placed"], e["limit"]) for e in endpoints] == [
            (True, 0, 2, None),
            (True, 0, 2, 4),
        ]
        servers[0].kill()
        # An action placed while the loss is not yet known fails with a code, and does not hang.
        reply = process.execute({"url": pages.url("/form")})
        assert reply.status == 200 or reply.body["error"]["code"] in (
            "browser_crashed",
            "browser_lost",
            "browser_unavailable",
        ), reply.body
        endpoints = wait_until(
            lambda: (e := process.get("/healthz").body["endpoints"])[0]["up"] is False and e,
            "the killed endpoint reported down",
        )
        assert endpoints[0]["problem"]
        placed = endpoints[1]["placed"]
        for _ in range(2):  # once it is down, every action lands on the other endpoint
            reply = process.execute({"url": pages.url("/form")})
            assert reply.status == 200, reply.body
        endpoints = process.get("/healthz").body["endpoints"]
        assert endpoints[1]["up"] is True and endpoints[1]["placed"] == placed + 2
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


def test_the_url_policys_proxy_is_not_given_to_endpoints() -> None:
    """The policy's proxy listens on this machine's loopback, out of an endpoint's reach: a
    launched browser gets it, a pool of endpoints does not (navigations stay guarded in-browser)."""
    from host.executor.settings import ExecutorSettings

    proxy = "http://127.0.0.1:9999"
    assert ExecutorSettings().host_config("chromium", proxy).proxy_server == proxy
    pooled = ExecutorSettings(browser_endpoints=("ws://10.0.0.5:3000/",))
    assert pooled.host_config("chromium", proxy).proxy_server is None

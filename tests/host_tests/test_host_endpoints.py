"""`--browser-endpoint`: URLs the host accepts or refuses, and a pool of two real Playwright
browser servers (placement by fewest sessions, failover with `browser_lost`, `/healthz`)."""

from __future__ import annotations

import asyncio
import base64
import http.server
import json
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from host.browsers.endpoint_specs import parse_endpoint
from host.calls.core import Host
from host.settings.config import DEFAULT_BROWSER_ARGS
from host_tests.browser_servers import BrowserServer, free_port, kill, needs_node, run_server
from host_tests.host_helpers import (
    PYTHON,
    REPO,
    AppServer,
    LoopThread,
    chromium_pids,
    descendants,
    host_config,
    serve_host,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::ResourceWarning")]


@pytest.fixture
def servers() -> Iterator[list[BrowserServer]]:
    needs_node()
    started: list[BrowserServer] = []
    try:
        started.append(BrowserServer())
        started.append(BrowserServer())
        yield started
    finally:
        for server in started:
            server.kill()


# -- URLs ---------------------------------------------------------------------------------------


def test_endpoint_urls_name_their_kind_and_limit() -> None:
    spec = parse_endpoint("ws://10.0.0.5:3000/abc?max=8")
    assert (spec.kind, spec.url, spec.limit) == ("ws", "ws://10.0.0.5:3000/abc", 8)
    spec = parse_endpoint("http://127.0.0.1:9222")
    assert (spec.kind, spec.url, spec.limit) == ("cdp", "http://127.0.0.1:9222", None)
    spec = parse_endpoint("wss://user:secret@grid.example:443/pw?token=t&max=2")
    assert spec.kind == "ws" and spec.limit == 2
    assert spec.url == "wss://user:secret@grid.example:443/pw?token=t"
    assert "secret" not in spec.shown and spec.shown.startswith("wss://***@grid.example")
    spec = parse_endpoint("selenium+http://hub.example:4444/wd/hub?max=20")
    assert (spec.kind, spec.url, spec.limit) == ("selenium", "http://hub.example:4444/wd/hub", 20)
    assert spec.shown == "selenium+http://hub.example:4444/wd/hub"


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://h:1/", "unknown scheme ftp://"),
        ("h:9222", "unknown scheme"),
        ("selenium+ftp://hub:4444", "unknown scheme selenium\\+ftp://"),
        ("ws://h:1/?max=0", "max must be at least 1"),
        ("ws://h:1/?max=many", "not a whole number"),
        ("ws://h:port/", "not a URL"),
        ("selenium+http://hub:4444/wd/hub?token=t", "takes no query \\(but max\\)"),
        ("selenium+http://hub:4444/#x", "no fragment"),
    ],
)
def test_endpoint_urls_it_cannot_use_are_refused(url: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_endpoint(url)


def _serve_fails(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "host", "serve", "--http", "127.0.0.1:0", *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_a_bad_endpoint_is_refused_at_start() -> None:
    done = _serve_fails("--browser-endpoint", "ftp://127.0.0.1:9/")
    assert done.returncode == 2
    assert "ftp://127.0.0.1:9/" in done.stderr and "unknown scheme" in done.stderr
    done = _serve_fails("--selenium-capabilities", '{"se:name": "x"}')
    assert done.returncode == 2
    assert "--selenium-capabilities: give it with a selenium+http:// --browser-endpoint" in (
        done.stderr
    )
    done = _serve_fails(
        "--browser-endpoint", "selenium+http://127.0.0.1:9", "--selenium-capabilities", "[1]"
    )
    assert done.returncode == 2 and "must be a JSON object" in done.stderr


def test_a_selenium_password_travels_as_a_header_and_is_never_shown(tmp_path: Path) -> None:
    """The hub's user name and password leave the URL for a Basic header; a hub that refuses
    (here: answers 500 to every request) is reported without them."""
    from host.browsers.selenium_driver import selenium_env

    env = selenium_env("http://agent:s%3Acret@hub:4444/wd/hub", None)
    assert env["SELENIUM_REMOTE_URL"] == "http://hub:4444/wd/hub"
    assert json.loads(env["SELENIUM_REMOTE_HEADERS"]) == {
        "Authorization": "Basic " + base64.b64encode(b"agent:s:cret").decode()
    }

    class Refusing(http.server.BaseHTTPRequestHandler):
        def _refuse(self) -> None:
            self.send_response(500)
            self.send_header("content-length", "0")
            self.end_headers()

        do_GET = do_POST = do_DELETE = _refuse

        def log_message(self, *args: object) -> None:
            pass

    hub = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Refusing)
    threading.Thread(target=hub.serve_forever, daemon=True).start()
    try:
        url = f"selenium+http://agent:sekret-pw@127.0.0.1:{hub.server_address[1]}"
        done = _serve_fails("--browser-endpoint", url)
    finally:
        hub.shutdown()
    assert done.returncode == 2, done.stderr
    assert f"selenium+http://***@127.0.0.1:{hub.server_address[1]}" in done.stderr
    assert "sekret-pw" not in done.stderr and "agent" not in done.stderr


def test_config_file_endpoint_entries_carry_their_limit(tmp_path: Path) -> None:
    """A config file's `browser-endpoint` list may hold `{url, max}` entries; a malformed one is
    refused with the file and the key."""
    from host.commands.cli import build_parser
    from host.settings.config_file import ConfigFileError, with_config

    serve = build_parser()._subparsers._group_actions[0].choices["serve"]  # type: ignore[union-attr]
    config = tmp_path / "host.yaml"
    config.write_text(
        "browser-endpoint:\n"
        "  - {url: 'ws://10.0.0.5:3000/pw', max: 8}\n"
        "  - selenium+http://hub:4444\n"
        "selenium-capabilities: {se:name: agents}\n"
    )
    argv, origins = with_config(serve, ["--stdio", "--config", str(config)])
    args = serve.parse_args(argv)
    assert args.browser_endpoint == ["ws://10.0.0.5:3000/pw?max=8", "selenium+http://hub:4444"]
    assert json.loads(args.selenium_capabilities) == {"se:name": "agents"}
    assert "'browser-endpoint' in" in origins["--browser-endpoint"]
    config.write_text("browser-endpoint:\n  - {url: 'ws://h:1/', limit: 8}\n")
    with pytest.raises(ConfigFileError, match=r"'browser-endpoint' in .*unknown key limit"):
        with_config(serve, ["--stdio", "--config", str(config)])
    config.write_text("browser-endpoint:\n  - {url: 'ws://h:1/?max=2', max: 8}\n")
    with pytest.raises(ConfigFileError, match=r"give max once"):
        with_config(serve, ["--stdio", "--config", str(config)])


def test_the_only_endpoint_unreachable_at_start_is_refused() -> None:
    done = _serve_fails("--browser-endpoint", "ws://127.0.0.1:9/nothing-here")
    assert done.returncode == 2, done.stderr
    assert "ws://127.0.0.1:9/nothing-here" in done.stderr
    assert "error:" in done.stderr
    done = _serve_fails("--browser-endpoint", "selenium+http://127.0.0.1:9")
    assert done.returncode == 2, done.stderr
    assert "error: --browser-endpoint selenium+http://127.0.0.1:9: " in done.stderr


# -- a pool of two browser servers ---------------------------------------------------------------


def _on(host: Host, key: str) -> int:
    session = host.sessions.get(key)
    assert session is not None
    return next(i for i, e in enumerate(host.endpoints.endpoints) if e.pool is session.pool)


@pytest.mark.scaleout
def test_sessions_spread_over_two_servers_and_fail_over(
    servers: list[BrowserServer], app: AppServer
) -> None:
    loop = LoopThread()
    host = Host(host_config(browser_endpoints=(servers[0].ws + "?max=8", servers[1].ws)))
    try:
        keys = [f"agent{i}" for i in range(4)]
        for key in keys:
            outcome = loop.run(host.call(key, "web_navigate", {"url": app.url("/page")}))
            assert outcome.ok, outcome.text()
        placed = [_on(host, key) for key in keys]
        assert sorted(placed) == [0, 0, 1, 1]
        report = host.endpoints.report()
        assert [(r["up"], r["sessions"]) for r in report] == [(True, 2), (True, 2)]
        assert [r["limit"] for r in report] == [8, None]
        assert "max=" not in report[0]["url"]

        lost = [k for k, p in zip(keys, placed, strict=True) if p == 0]
        kept = [k for k, p in zip(keys, placed, strict=True) if p == 1]
        running = asyncio.run_coroutine_threadsafe(
            host.call(
                lost[0], "web_evaluate", {"script": "new Promise(r => setTimeout(r, 60000))"}
            ),
            loop.loop,
        )
        time.sleep(1.0)
        servers[0].kill()
        started = time.monotonic()
        outcome = running.result(30)  # the call that ran there ends with it
        assert outcome.error is not None and outcome.error.code == "browser_lost", outcome.text()
        assert time.monotonic() - started < 15
        wait_until(lambda: not host.endpoints.endpoints[0].up, "the endpoint marked down", 20)
        assert [r["sessions"] for r in host.endpoints.report()] == [0, 2]
        # its next call lands on the other server, and says why the session is new
        outcome = loop.run(host.call(lost[0], "web_evaluate", {"script": "1 + 1"}))
        assert outcome.ok, outcome.text()
        assert "another endpoint" in json.dumps(outcome.extras), outcome.extras
        assert _on(host, lost[0]) == 1
        lost = lost[1:]
        started = time.monotonic()
        for key in lost:
            outcome = loop.run(host.call(key, "web_evaluate", {"script": "1 + 1"}))
            assert not outcome.ok
            assert outcome.error is not None and outcome.error.code == "browser_lost", (
                outcome.text()
            )
            assert "another endpoint" in outcome.error.message
        assert time.monotonic() - started < 20
        assert not host.endpoints.endpoints[0].up
        for key in kept:  # the other server's sessions go on as they were
            outcome = loop.run(host.call(key, "web_evaluate", {"script": "1 + 1"}))
            assert outcome.ok, outcome.text()
        # a lost session's next call, and a new session, land on the server that is up
        for key in [lost[0], "newcomer"]:
            outcome = loop.run(host.call(key, "web_navigate", {"url": app.url("/page2")}))
            assert outcome.ok, outcome.text()
            assert _on(host, key) == 1
        assert [r["sessions"] for r in host.endpoints.report()] == [0, 5]
    finally:
        loop.run(host.close())
        loop.close()


@pytest.mark.scaleout
def test_healthz_reports_each_endpoint(servers: list[BrowserServer]) -> None:
    served = serve_host(
        "--browser-endpoint",
        servers[0].ws + "?max=3",
        "--browser-endpoint",
        "ws://user:secret@127.0.0.1:9/gone",
        "--browser-endpoint",
        servers[1].ws,
    )
    try:
        assert any("ws://***@127.0.0.1:9/gone" in line for line in served.log)
        assert not any("secret" in line for line in served.log)

        def health() -> dict[str, Any]:
            try:
                with urllib.request.urlopen(served.base + "/healthz", timeout=30) as response:
                    return dict(json.loads(response.read()))
            except urllib.error.HTTPError as error:
                return dict(json.loads(error.read()))

        body = health()
        assert body["ok"] is True
        endpoints = body["endpoints"]
        assert [e["url"] for e in endpoints] == [
            servers[0].ws,
            "ws://***@127.0.0.1:9/gone",
            servers[1].ws,
        ]
        assert [e["limit"] for e in endpoints] == [3, None, None]
        assert all(e["sessions"] == 0 for e in endpoints)
        # connected to at start: the unreachable one is down, the others up
        body = wait_until(
            lambda: (b := health())["endpoints"][1]["up"] is False and b, "the endpoint marked down"
        )
        assert [e["up"] for e in body["endpoints"]] == [True, False, True]
        assert body["ok"] is True and body["endpoints"][1]["problem"]
    finally:
        assert served.stop() == 0


@pytest.mark.scaleout
def test_a_run_server_endpoint_launches_with_the_hosts_options(app: AppServer) -> None:
    """`playwright run-server --unsafe` launches the browser the host asks for (Debian's
    Chromium, headless, the host's args), sent in the launch options header."""
    port = free_port()
    server = run_server(port)
    loop = LoopThread()
    try:
        host = Host(
            host_config(
                browser_endpoints=(f"ws://127.0.0.1:{port}/",),
                browser_args=(*DEFAULT_BROWSER_ARGS, "--host-test-marker"),
            )
        )
        try:
            outcome = loop.run(host.call("k", "web_navigate", {"url": app.url("/page")}))
            assert outcome.ok, outcome.text()
            browsers = chromium_pids(descendants(server.pid))
            assert len(browsers) == 1
            with open(f"/proc/{browsers.pop()}/cmdline", "rb") as handle:
                cmdline = handle.read().split(b"\0")
            assert cmdline[0].startswith(b"/usr/lib/chromium/")  # Debian's, by its wrapper
            assert b"--headless" in cmdline and b"--host-test-marker" in cmdline
        finally:
            loop.run(host.close())
    finally:
        loop.close()
        kill(server)


@pytest.mark.scaleout
def test_an_endpoint_takes_no_more_sessions_than_its_max(app: AppServer) -> None:
    needs_node()
    server = BrowserServer()
    loop = LoopThread()
    host = Host(host_config(browser_endpoints=(server.ws + "?max=1",)))
    try:
        outcome = loop.run(host.call("first", "web_navigate", {"url": app.url("/page")}))
        assert outcome.ok, outcome.text()
        outcome = loop.run(host.call("second", "web_navigate", {"url": app.url("/page")}))
        assert outcome.error is not None and outcome.error.code == "too_many_sessions"
        assert "(1/1)" in outcome.error.message
        loop.run(host.end_session("first"))
        outcome = loop.run(host.call("second", "web_navigate", {"url": app.url("/page")}))
        assert outcome.ok, outcome.text()
    finally:
        loop.run(host.close())
        loop.close()
        server.kill()


@pytest.mark.scaleout
def test_an_endpoint_that_comes_back_takes_sessions_again(app: AppServer) -> None:
    """Down, it is retried in the background (with backoff) and placed on again once it answers."""
    needs_node()
    port = free_port()
    first = run_server(port)
    other = BrowserServer()
    loop = LoopThread()
    host = Host(host_config(browser_endpoints=(f"ws://127.0.0.1:{port}/", other.ws)))
    try:
        loop.run(host.start())
        for key in ("a", "b"):
            outcome = loop.run(host.call(key, "web_navigate", {"url": app.url("/page")}))
            assert outcome.ok, outcome.text()
        assert sorted(_on(host, key) for key in ("a", "b")) == [0, 1]
        kill(first)
        wait_until(lambda: not host.endpoints.endpoints[0].up, "the endpoint marked down", 20)
        first = run_server(port)
        wait_until(lambda: host.endpoints.endpoints[0].up, "the endpoint up again", 60)
        outcome = loop.run(host.call("c", "web_navigate", {"url": app.url("/page")}))
        assert outcome.ok, outcome.text()
        assert _on(host, "c") == 0  # the fewest live sessions: the lost one's no longer count
    finally:
        loop.run(host.close())
        loop.close()
        kill(first)
        other.kill()

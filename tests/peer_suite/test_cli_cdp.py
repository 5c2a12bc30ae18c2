"""cli-cdp.spec.ts: `playwright-cli attach --cdp=...` and `detach`: session names, listing and
errors of the program, a browser's already open page taken over, and tracing over such a
connection. This host reaches a browser over CDP with `serve --cdp-endpoint`; the tracing case is
checked through it."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost, remote_debugging_chromium, serve_host, wait_until

from peer_suite.cli_pages import cli_only
from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-cdp.spec.ts"
OPEN_PAGE = (
    "differs: the peer's attach --cdp takes over the page already open in that browser (its "
    "snapshot shows it); this host's --cdp-endpoint gives each MCP session a context of its own "
    "in that browser (host_tests/test_host_reliability.py::"
    "test_cdp_endpoint_uses_a_browser_that_runs_elsewhere), never another client's open page"
)
PEER_CASES = {
    "connect by channel name error": cli_only(
        "`attach --cdp=<channel>`'s error for an installed browser channel not listening"
    ),
    "attach --cdp=<channel> defaults session name to the channel": cli_only(
        "the session name `attach --cdp=<channel>` picks"
    ),
    "explicit --session wins over --cdp=<channel>": cli_only("`-s=name` beside `--cdp=<channel>`"),
    "attach via cdp URL keeps the default session": cli_only(
        "the session name and `list` entry of `attach --cdp=<url>`"
    ),
    "attach via cdp URL honors PLAYWRIGHT_CLI_SESSION as session name": cli_only(
        "the session name taken from PLAYWRIGHT_CLI_SESSION"
    ),
    "attach rejects combining --cdp, --endpoint, or --extension": cli_only(
        "`attach`'s check of its own options"
    ),
    "detach tears down an attached session": cli_only("`detach` ending an attached session"),
    "detach rejects sessions opened via open": cli_only("`detach`'s error for an opened session"),
    "detach on unknown session reports not attached": cli_only(
        "`detach` of a session that is not attached"
    ),
    "cdp server": OPEN_PAGE,
    "attach via cdp": OPEN_PAGE,
    "tracing-start-stop over cdp": "test_tracing_over_a_cdp_endpoint",
}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """A host whose browser runs elsewhere, reached over CDP, with the tracing capability."""
    profile = tmp_path_factory.mktemp("profile")
    browser = remote_debugging_chromium(profile)
    try:
        port_file = profile / "DevToolsActivePort"
        port = wait_until(
            lambda: port_file.exists() and port_file.read_text().split("\n")[0],
            "the debugging port",
        )
        served = serve_host(
            "--caps",
            "tracing",
            "--output-dir",
            str(tmp_path_factory.mktemp("output")),
            "--cdp-endpoint",
            f"http://127.0.0.1:{port}",
        )
        yield served
        served.stop()
    finally:
        browser.terminate()
        browser.wait(30)


def test_tracing_over_a_cdp_endpoint(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> Any:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        await called(agent, "browser_start_tracing", {})
        await agent.ok(
            "browser_evaluate", {"function": '() => fetch("/hello-world").then(r => r.text())'}
        )
        stopped, _ = await called(agent, "browser_stop_tracing", {})
        return stopped["result"]

    stopped = with_agent(host, body)
    with zipfile.ZipFile(Path(stopped["path"])) as archive:
        names = archive.namelist()
        network = archive.read("trace.network").decode()
    assert "trace.trace" in names and "trace.network" in names, names
    assert "/hello-world" in network

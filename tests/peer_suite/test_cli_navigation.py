"""cli-navigation.spec.ts: `go-back`, `go-forward`, `open` without a URL, `tab-new <url>` and
`run-code`, called as our `browser_navigate_back`, `browser_navigate` (`forward`), a new session,
`browser_tabs` and `browser_execute_python` (this host runs Playwright code in Python; the host
below enables it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-navigation.spec.ts"
PEER_CASES = {
    "go-back": "test_go_back_and_forward",
    "go-forward": "test_go_back_and_forward",
    "open without url opens about:blank": "test_a_new_session_shows_about_blank_and_tab_new",
    "tab-new with url": "test_a_new_session_shows_about_blank_and_tab_new",
    "run-code": "test_run_code",
}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """The suite's host with Playwright code execution on (the peer's run-code)."""
    served = serve_host(
        "--caps",
        "vision,pdf,testing,storage,network",
        "--output-dir",
        str(tmp_path_factory.mktemp("output")),
        "--enable-execute",
    )
    yield served
    served.stop()


def test_go_back_and_forward(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", "<title>Prefix</title>")

    async def body(agent: Agent) -> tuple[Any, Any]:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        back, _ = await called(agent, "browser_navigate_back", {})
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        await agent.ok("browser_navigate_back", {})
        forward, _ = await called(agent, "browser_navigate", {"url": "forward"})
        return back["result"], forward["result"]

    back, forward = with_agent(host, body)
    assert (back["url"], back["title"]) == (server.HELLO_WORLD, "Title")
    assert (forward["url"], forward["title"]) == (server.HELLO_WORLD, "Title")


def test_a_new_session_shows_about_blank_and_tab_new(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> tuple[Any, Any]:
        opened, _ = await called(agent, "browser_tabs", {"action": "list"})
        added, _ = await called(agent, "browser_tabs", {"action": "new", "url": server.HELLO_WORLD})
        listed, _ = await called(agent, "browser_tabs", {"action": "list"})
        return opened["result"]["tabs"], (added["result"], listed["result"]["tabs"])

    opened, (added, listed) = with_agent(host, body)
    assert [t["url"] for t in opened] == ["about:blank"]
    assert [(t["url"], t["title"], t["current"]) for t in listed] == [
        ("about:blank", "", False),
        (server.HELLO_WORLD, "Title", True),
    ], (added, listed)


def test_run_code(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> Any:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        ran, _ = await called(
            agent, "browser_execute_python", {"code": "return await page.title()"}
        )
        return ran

    ran = with_agent(host, body)
    assert ran["success"] is True and ran["result"] == "Title", ran

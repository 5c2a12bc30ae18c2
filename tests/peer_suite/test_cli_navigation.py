"""cli-navigation.spec.ts: `go-back`, `go-forward`, `open` without a URL and `tab-new <url>`,
called as our `browser_navigate_back`, `browser_navigate` (`forward`), a new session and
`browser_tabs`; its `run-code` case is cli-run-code's (this host runs Playwright code in
Python, `browser_execute_python`)."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-navigation.spec.ts"
PEER_CASES = {
    "go-back": "test_go_back_and_forward",
    "go-forward": "test_go_back_and_forward",
    "open without url opens about:blank": "test_a_new_session_shows_about_blank_and_tab_new",
    "tab-new with url": "test_a_new_session_shows_about_blank_and_tab_new",
    "run-code": "peer_suite/test_cli_run_code.py::test_run_code_clicks_and_returns_the_title",
}


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

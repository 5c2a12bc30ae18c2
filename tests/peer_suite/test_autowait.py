"""autowait.spec.ts: a click whose page navigates 100 ms later reports where the page went (the
result waits for what the click set off), not the page it left."""

from __future__ import annotations

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "autowait.spec.ts"
PEER_CASES = {
    "racy navigation destroys context": "test_a_click_reports_the_navigation_it_started_later",
}


def test_a_click_reports_the_navigation_it_started_later(
    host: ServedHost, server: PeerSite
) -> None:
    server.set_content(
        "/",
        "<button onclick='setTimeout(() => window.location = \"about:blank\", 100)'>"
        "Submit</button>",
    )

    async def body(agent: Agent) -> tuple[dict, str]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        await called(agent, "browser_snapshot", {})
        return await called(agent, "browser_click", {"element": "Submit button", "target": "e2"})

    clicked, text = with_agent(host, body)
    assert clicked["result"]["url"] == "about:blank"
    assert "page: about:blank" in text

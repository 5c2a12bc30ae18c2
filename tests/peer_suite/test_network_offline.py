"""network-offline.spec.ts: `browser_network_state_set` (capability `network`) takes the session
offline, where navigation fails with Chromium's ERR_INTERNET_DISCONNECTED, and back online, where
it works again."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "network-offline.spec.ts"
PEER_CASES = {
    "browser_network_state_set sets network to offline": "test_offline_then_online",
    "browser_network_state_set restores network to online": "test_offline_then_online",
    "network requests fail when offline": "test_offline_then_online",
    "network requests succeed after restoring online": "test_offline_then_online",
}


def test_offline_then_online(host: ServedHost, server: PeerSite) -> None:
    style = server.set_content("/one-style.html", "<title>Styled</title><p>styled</p>")

    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        seen["offline"] = await called(agent, "browser_network_state_set", {"state": "offline"})
        seen["failed"] = await refused(agent, "browser_navigate", {"url": style})
        seen["online"] = await called(agent, "browser_network_state_set", {"state": "online"})
        seen["back"] = await agent.ok("browser_navigate", {"url": style})
        return seen

    seen = with_agent(host, body)
    structured, text = seen["offline"]
    assert structured["result"] == {"network": "offline"} and "now offline" in text
    assert "net::ERR_INTERNET_DISCONNECTED" in seen["failed"]
    structured, text = seen["online"]
    assert structured["result"] == {"network": "online"} and "now online" in text
    assert seen["back"]["url"] == style and seen["back"]["title"] == "Styled"
    # The server saw the page once: the offline attempt never left the browser.
    assert len(server.seen("/one-style.html")) == 1

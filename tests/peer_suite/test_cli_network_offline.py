"""cli-network-offline.spec.ts: `playwright-cli network-state-set` calls
`browser_network_state_set` (the `network` capability): offline, then online again, as the page
sees it."""

from __future__ import annotations

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-network-offline.spec.ts"
PEER_CASES = {
    "network-state-set toggles offline state": "test_network_state_set_toggles_offline",
}

ONLINE = "() => navigator.onLine"
FETCH = "() => fetch('/hello-world').then(r => 'fetched ' + r.status, e => 'failed')"


def test_network_state_set_toggles_offline(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> list[object]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        seen: list[object] = []
        for state in ("offline", "online"):
            _, text = await called(agent, "browser_network_state_set", {"state": state})
            seen += [text, await agent.ok("browser_evaluate", {"function": ONLINE})]
            seen.append(await agent.ok("browser_evaluate", {"function": FETCH}))
        return seen

    offline_text, offline, offline_fetch, online_text, online, online_fetch = with_agent(host, body)
    assert "offline" in str(offline_text) and offline is False and offline_fetch == "failed"
    assert "online" in str(online_text) and online is True and online_fetch == "fetched 200"

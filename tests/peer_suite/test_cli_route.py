"""cli-route.spec.ts: `playwright-cli route`, `route-list` and `unroute` call `browser_route`
(its flat peer form: `pattern`, `status`, `body`, `contentType`, `headers`), `browser_route_list`
and `browser_unroute`; the list's facts are checked, and a mocked answer as the page gets it."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-route.spec.ts"
PEER_CASES = {
    "route-list shows no routes when empty": "test_route_list_shows_each_route",
    "route adds a mock and route-list shows it": "test_route_list_shows_each_route",
    "route with content-type": "test_route_list_shows_each_route",
    "route with header": "test_route_list_shows_each_route",
    "route with numerical body": "test_route_list_shows_each_route",
    "unroute removes specific route": "test_unroute_one_pattern_then_all",
    "unroute removes all routes": "test_unroute_one_pattern_then_all",
}

FETCH = "() => fetch('/api/users').then(async r => r.status + ' ' + await r.text())"


async def routes(agent: Agent) -> list[dict[str, Any]]:
    structured, _ = await called(agent, "browser_route_list", {})
    return list(structured["result"]["routes"])


def test_route_list_shows_each_route(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        facts: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        facts["empty"] = await routes(agent)
        added, _ = await called(
            agent, "browser_route", {"pattern": "**/api/users", "body": "[]", "status": 200}
        )
        facts["added"] = added["result"]
        facts["fetched"] = await agent.ok("browser_evaluate", {"function": FETCH})
        await called(
            agent,
            "browser_route",
            {"pattern": "**/api/data", "body": '{"test":true}', "contentType": "application/json"},
        )
        await called(
            agent,
            "browser_route",
            {"pattern": "**/api/**", "headers": ["Authorization: Bearer token"]},
        )
        await called(
            agent,
            "browser_route",
            {"pattern": "**/api/number", "body": "42", "contentType": "text/plain"},
        )
        facts["listed"] = await routes(agent)
        return facts

    facts = with_agent(host, body)
    assert facts["empty"] == []
    assert facts["added"]["route"]["url"] == "**/api/users" and facts["added"]["routes"] == 1
    assert facts["fetched"] == "200 []"  # the page got the mock
    listed = {route["url"]: route for route in facts["listed"]}
    assert listed["**/api/users"]["status"] == 200
    assert listed["**/api/data"]["contentType"] == "application/json"
    assert listed["**/api/**"]["headers"] == {"Authorization": "Bearer token"}
    assert listed["**/api/number"]["contentType"] == "text/plain"
    assert listed["**/api/number"]["bodyBytes"] == 2  # "42", a string body


def test_unroute_one_pattern_then_all(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        facts: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        for pattern, status in (("**/api/users", 200), ("**/api/posts", 201)):
            await called(agent, "browser_route", {"pattern": pattern, "status": status})
        one, _ = await called(agent, "browser_unroute", {"pattern": "**/api/users"})
        facts["one"] = one["result"]
        facts["left"] = [route["url"] for route in await routes(agent)]
        await called(agent, "browser_route", {"pattern": "**/api/users", "status": 200})
        every, _ = await called(agent, "browser_unroute", {})
        facts["all"] = every["result"]
        facts["none"] = await routes(agent)
        return facts

    facts = with_agent(host, body)
    assert facts["one"] == {"removed": 1, "routes": 1}
    assert facts["left"] == ["**/api/posts"]
    assert facts["all"] == {"removed": 2, "routes": 0}
    assert facts["none"] == []

"""route.spec.ts: `browser_route` in the peer's flat form (`pattern`, `status`, `body`,
`contentType`; `headers: ["Name: value"]` to change a request as it goes on), `browser_route_list`
and `browser_unroute` (one glob, or every route)."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import Answer, PeerSite, Request

SPEC = "route.spec.ts"
PEER_CASES = {
    "browser_route mocks response with JSON body": "test_route_mocks_a_response_and_changes_a_request",
    "browser_route mocks response with custom status": "test_route_mocks_a_response_and_changes_a_request",
    "browser_route modifies request headers": "test_route_mocks_a_response_and_changes_a_request",
    "browser_route_list shows active routes": "test_route_list_and_unroute",
    "browser_unroute removes specific route": "test_route_list_and_unroute",
    "browser_unroute removes all routes": "test_route_list_and_unroute",
}

PAGE = """<button id=users onclick="fetch('/api/users').then(r => r.json())
  .then(d => out.textContent = JSON.stringify(d))">Users</button>
<button id=error onclick="fetch('/api/error').then(r => out.textContent = 'Status: ' + r.status)">Error</button>
<button id=check onclick="fetch('/api/check').then(() => out.textContent = 'Done')">Check</button>
<p id=out>none</p>"""


async def _click(agent: Agent, name: str, wait_text: str) -> None:
    _, snapshot = await called(agent, "browser_snapshot", {})
    await agent.ok("browser_click", {"target": find_ref(snapshot, f'button "{name}"')})
    await agent.ok("browser_wait_for", {"text": wait_text})


def test_route_mocks_a_response_and_changes_a_request(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", PAGE)
    server.set_route("/api/check", lambda _: Answer(b'{"received": true}', "application/json"))

    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        seen["added"] = await agent.ok(
            "browser_route",
            {
                "pattern": "**/api/users",
                "status": 200,
                "body": '[{"id": 1, "name": "Alice"}]',
                "contentType": "application/json",
            },
        )
        await _click(agent, "Users", "Alice")
        _, seen["users"] = await called(agent, "browser_snapshot", {})
        await agent.ok(
            "browser_route", {"pattern": "**/api/error", "status": 404, "body": "Not Found"}
        )
        await _click(agent, "Error", "Status: 404")
        _, seen["error"] = await called(agent, "browser_snapshot", {})
        await agent.ok(
            "browser_route", {"pattern": "**/api/check", "headers": ["X-Custom-Header: test-value"]}
        )
        await _click(agent, "Check", "Done")
        return seen

    seen = with_agent(host, body)
    route = seen["added"]["route"]
    assert route["url"] == "**/api/users" and route["action"] == "fulfill"
    assert route["status"] == 200
    assert "Alice" in seen["users"]
    assert "Status: 404" in seen["error"]
    # The mocked requests never reached the server; the changed one did, with the header.
    assert not server.seen("/api/users") and not server.seen("/api/error")
    checks: list[Request] = server.seen("/api/check")
    assert [r.headers.get("x-custom-header") for r in checks] == ["test-value"]


def test_route_list_and_unroute(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        seen["empty"] = await called(agent, "browser_route_list", {})
        await agent.ok("browser_route", {"pattern": "**/api/users", "status": 200, "body": "[]"})
        await agent.ok(
            "browser_route",
            {"pattern": "**/api/posts", "status": 201, "contentType": "application/json"},
        )
        seen["two"] = await agent.ok("browser_route_list", {})
        seen["one_removed"] = await agent.ok("browser_unroute", {"pattern": "**/api/users"})
        seen["one_left"] = await agent.ok("browser_route_list", {})
        await agent.ok("browser_route", {"pattern": "**/api/users", "status": 200})
        seen["all_removed"] = await agent.ok("browser_unroute", {})
        seen["none_left"] = await called(agent, "browser_route_list", {})
        return seen

    seen = with_agent(host, body)

    def listed(result: dict[str, Any]) -> dict[str, Any]:
        return {route["url"]: route.get("status") for route in result["routes"]}

    assert seen["empty"][0]["result"]["routes"] == []
    assert listed(seen["two"]) == {"**/api/users": 200, "**/api/posts": 201}
    assert seen["one_removed"]["removed"] == 1
    assert listed(seen["one_left"]) == {"**/api/posts": 201}
    assert seen["all_removed"] == {"removed": 2, "routes": 0}
    assert seen["none_left"][0]["result"]["routes"] == []

"""network.spec.ts: `browser_network_requests` in the peer's form (`static`, `filter`: every
kept request under a stable id, successful static ones left out and counted unless `static`) and
`browser_network_request` by the peer's `index`, whole or one `part` (a binary response body
written to a file). Without `static` or `filter` the list is ours: the requests new since the
last call, all of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import Answer, PeerSite

SPEC = "network.spec.ts"
PEER_CASES = {
    "browser_network_requests": "test_static_requests_are_counted_apart",
    "browser_network_requests filter": "test_ids_are_stable_and_a_filter_picks_urls",
    "browser_network_requests rejects invalid regex filter": "test_ids_are_stable_and_a_filter_picks_urls",
    "browser_network_requests numbers requests with stable indexes": "test_ids_are_stable_and_a_filter_picks_urls",
    "browser_network_request shows full request and response details": "test_one_request_whole_and_in_parts",
    "browser_network_request reports failed requests": "test_failed_requests",
    "browser_network_requests lists a failed request once": "test_failed_requests",
    "browser_network_request returns individual parts": "test_one_request_whole_and_in_parts",
    "browser_network_request response-body part saves binary to a file": "test_one_request_whole_and_in_parts",
    "browser_network_request rejects out-of-range index": "test_one_request_whole_and_in_parts",
}

PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
POST = (
    "<button onclick=\"fetch('/api', { method: 'POST', headers: { 'X-Custom-Header': 'test-value' },"
    " body: JSON.stringify({ key: 'value' }) })\">Post</button>"
    "<button onclick=\"fetch('/image.png')\">Image</button>"
)


def _urls(result: dict[str, Any]) -> dict[str, Any]:
    return {r["url"]: r for r in result["requests"]}


async def _click(agent: Agent, name: str) -> None:
    _, snapshot = await called(agent, "browser_snapshot", {})
    await agent.ok("browser_click", {"target": find_ref(snapshot, f'button "{name}"')})


def test_static_requests_are_counted_apart(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/", "<button onclick=\"fetch('/json')\">Click me</button><img src=/image.png>"
    )
    server.set_content("/json", '{"name": "John Doe"}', "application/json")

    async def body(agent: Agent) -> list[Any]:
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/"})
        await _click(agent, "Click me")
        return [
            await agent.ok("browser_network_requests", {}),  # ours: new since the last call
            await agent.ok("browser_network_requests", {"static": False}),  # the peer's default
            await agent.ok("browser_network_requests", {"static": True}),
        ]

    ours, peers, static = with_agent(host, body)
    page, fetched, image = (
        server.PREFIX + "/",
        server.PREFIX + "/json",
        server.PREFIX + "/image.png",
    )
    assert {page, fetched, image} <= set(_urls(ours))
    listed = _urls(peers)
    assert page not in listed  # a successful static request: counted, not shown
    assert listed[fetched]["status"] == 200 and listed[image]["status"] == 404
    assert peers["hiddenStatic"] == 1 and "static: true" in peers["note"]
    listed = _urls(static)
    assert listed[page]["status"] == 200 and listed[fetched]["status"] == 200
    assert listed[image]["status"] == 404
    assert "hiddenStatic" not in static and "note" not in static


def test_ids_are_stable_and_a_filter_picks_urls(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", "")
    for path in ("/api/users", "/api/orders", "/static/image.png"):
        server.set_content(path, "{}", "application/json")

    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/"})
        await agent.ok(
            "browser_evaluate",
            {"function": "async () => { await fetch('/api/users'); await fetch('/api/orders'); }"},
        )
        seen["first"] = await agent.ok("browser_network_requests", {"static": True})
        seen["again"] = await agent.ok("browser_network_requests", {"static": True})
        await agent.ok(
            "browser_evaluate",
            {
                "function": "async () => { await Promise.all([fetch('/api/users'),"
                " fetch('/api/orders'), fetch('/static/image.png')]); }"
            },
        )
        seen["filtered"] = await agent.ok(
            "browser_network_requests", {"filter": "/api/", "static": True}
        )
        seen["invalid"] = await refused(agent, "browser_network_requests", {"filter": "[invalid("})
        return seen

    seen = with_agent(host, body)
    first = [(r["id"], r["url"].removeprefix(server.PREFIX)) for r in seen["first"]["requests"]]
    assert first == [(1, "/"), (2, "/api/users"), (3, "/api/orders")]
    assert seen["again"]["requests"] == seen["first"]["requests"]  # the same ids, not taken
    urls = [r["url"].removeprefix(server.PREFIX) for r in seen["filtered"]["requests"]]
    assert sorted(urls) == ["/api/orders", "/api/orders", "/api/users", "/api/users"]
    assert "[invalid_argument]" in seen["invalid"] and "filter" in seen["invalid"]


def test_one_request_whole_and_in_parts(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", POST)
    server.set_content(
        "/api",
        '{"name":"John Doe"}',
        "application/json",
        headers={"X-Custom-Response": "response-value"},
    )
    server.set_route("/image.png", lambda _: Answer(PNG, "image/png"))

    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/"})
        await _click(agent, "Post")
        await _click(agent, "Image")
        listed = _urls(await agent.ok("browser_network_requests", {"static": True}))
        index = listed[server.PREFIX + "/api"]["id"]
        seen["post"] = listed[server.PREFIX + "/api"]
        seen["whole"] = await agent.ok("browser_network_request", {"index": index})
        for part in ("request-headers", "request-body", "response-headers", "response-body"):
            seen[part] = await agent.ok("browser_network_request", {"index": index, "part": part})
        image = listed[server.PREFIX + "/image.png"]["id"]
        seen["image"] = await agent.ok(
            "browser_network_request", {"index": image, "part": "response-body"}
        )
        seen["unknown"] = await refused(agent, "browser_network_request", {"index": 999})
        return seen

    seen = with_agent(host, body)
    assert seen["post"]["method"] == "POST" and seen["post"]["status"] == 200
    whole = seen["whole"]
    assert whole["method"] == "POST" and whole["url"] == server.PREFIX + "/api"
    assert whole["response"]["status"] == 200 and whole["response"]["statusText"] == "OK"
    assert whole["response"]["headers"]["content-type"] == "application/json"
    assert whole["requestHeaders"]["x-custom-header"] == "test-value"
    assert whole["response"]["headers"]["x-custom-response"] == "response-value"
    assert whole["resourceType"] == "fetch"
    # One part alone: nothing else of the request comes with it.
    assert seen["request-headers"]["headers"]["x-custom-header"] == "test-value"
    assert "response" not in seen["request-headers"] and "method" not in seen["request-headers"]
    assert seen["request-body"]["body"] == '{"key":"value"}'
    assert seen["response-headers"]["headers"]["x-custom-response"] == "response-value"
    assert seen["response-body"]["body"] == '{"name":"John Doe"}'
    saved = Path(seen["image"]["path"])
    assert saved.suffix == ".png" and saved.read_bytes() == PNG
    assert "[unknown_request]" in seen["unknown"] and "999" in seen["unknown"]


def test_failed_requests(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", "<img src=/missing.png><img src=http://does-not-exist.invalid/api/x>")

    async def body(agent: Agent) -> tuple[Any, Any]:
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/"})
        listed = await agent.ok("browser_network_requests", {"static": True})
        missing = _urls(listed)[server.PREFIX + "/missing.png"]["id"]
        return listed, await agent.ok("browser_network_request", {"index": missing})

    listed, detail = with_agent(host, body)
    failed = [r for r in listed["requests"] if r["url"].endswith("/api/x")]
    assert len(failed) == 1 and failed[0]["failure"], listed
    assert detail["url"] == server.PREFIX + "/missing.png"
    assert detail["response"]["status"] == 404

"""cookies.spec.ts: the `storage` capability's cookie tools: list (all, or by domain), get, set
(with every option), delete and clear, on the session's context."""

from __future__ import annotations

import time
from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cookies.spec.ts"
CAPS_TEST = (
    "host_agent/test_browser_tools.py::"
    "test_capability_tools_are_listed_and_callable_only_with_their_capability"
)
PEER_CASES = {
    "browser_cookie_list unavailable without storage capability": CAPS_TEST,
    "browser_cookie_list shows no cookies when empty": "test_cookies_set_list_get_and_filter",
    "browser_cookie_set and browser_cookie_get": "test_cookies_set_list_get_and_filter",
    "browser_cookie_list shows cookies": "test_cookies_set_list_get_and_filter",
    "browser_cookie_list filters by domain": "test_cookies_set_list_get_and_filter",
    "browser_cookie_get returns not found for missing cookie": "test_cookies_set_list_get_and_filter",
    "browser_cookie_set with all options": "test_cookie_set_with_every_option",
    "browser_cookie_delete removes cookie": "test_cookie_delete_and_clear",
    "browser_cookie_delete for nonexistent cookie does not error": "test_cookie_delete_and_clear",
    "browser_cookie_clear removes all cookies": "test_cookie_delete_and_clear",
}


def _pairs(result: dict[str, Any]) -> set[str]:
    return {f"{c['name']}={c['value']}" for c in result["cookies"]}


def test_cookies_set_list_get_and_filter(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        seen["empty"] = await called(agent, "browser_cookie_list", {})
        await agent.ok("browser_cookie_set", {"name": "testCookie", "value": "testValue"})
        seen["got"] = await called(agent, "browser_cookie_get", {"name": "testCookie"})
        await agent.ok("browser_cookie_set", {"name": "cookie2", "value": "value2"})
        seen["all"] = await called(agent, "browser_cookie_list", {})
        # The peer's page is on localhost; ours is on 127.0.0.1.
        seen["local"] = await agent.ok("browser_cookie_list", {"domain": "127.0.0.1"})
        seen["other"] = await called(agent, "browser_cookie_list", {"domain": "nonexistent.com"})
        seen["missing"] = await called(agent, "browser_cookie_get", {"name": "nonexistent"})
        # The page sees what was set.
        seen["page"] = await agent.ok("browser_evaluate", {"function": "() => document.cookie"})
        return seen

    seen = with_agent(host, body)
    structured, text = seen["empty"]
    assert structured["result"]["cookies"] == [] and "no cookies" in text.lower()
    structured, text = seen["got"]
    assert structured["result"]["cookie"]["value"] == "testValue"
    assert "testCookie=testValue" in text
    structured, text = seen["all"]
    assert _pairs(structured["result"]) == {"testCookie=testValue", "cookie2=value2"}
    assert "testCookie=testValue" in text and "cookie2=value2" in text
    assert _pairs(seen["local"]) == {"testCookie=testValue", "cookie2=value2"}
    structured, text = seen["other"]
    assert structured["result"]["cookies"] == [] and "no cookies" in text.lower()
    structured, text = seen["missing"]
    assert structured["result"]["cookie"] is None and "no cookie named" in text
    assert sorted(seen["page"].split("; ")) == ["cookie2=value2", "testCookie=testValue"]


def test_cookie_set_with_every_option(host: ServedHost, server: PeerSite) -> None:
    expires = int(time.time()) + 3600

    async def body(agent: Agent) -> tuple[dict[str, Any], str]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        await agent.ok(
            "browser_cookie_set",
            {
                "name": "fullCookie",
                "value": "fullValue",
                "path": "/test",
                "expires": expires,
                "httpOnly": True,
                "secure": False,
                "sameSite": "Lax",
            },
        )
        return await called(agent, "browser_cookie_get", {"name": "fullCookie"})

    structured, text = with_agent(host, body)
    cookie = structured["result"]["cookie"]
    assert cookie["value"] == "fullValue" and cookie["path"] == "/test"
    assert cookie["httpOnly"] is True and cookie["secure"] is False
    assert cookie["sameSite"] == "Lax" and int(cookie["expires"]) == expires
    assert "fullCookie=fullValue" in text


def test_cookie_delete_and_clear(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        await agent.ok("browser_cookie_set", {"name": "toDelete", "value": "deleteMe"})
        await agent.ok("browser_cookie_set", {"name": "existing", "value": "value"})
        seen["before"] = await agent.ok("browser_cookie_get", {"name": "toDelete"})
        await agent.ok("browser_cookie_delete", {"name": "toDelete"})
        seen["after"] = await agent.ok("browser_cookie_get", {"name": "toDelete"})
        # Deleting a cookie that is not there succeeds and leaves the others.
        await agent.ok("browser_cookie_delete", {"name": "nonexistent"})
        seen["kept"] = await agent.ok("browser_cookie_list", {})
        await agent.ok("browser_cookie_set", {"name": "cookie2", "value": "value2"})
        await agent.ok("browser_cookie_clear", {})
        seen["cleared"] = await called(agent, "browser_cookie_list", {})
        return seen

    seen = with_agent(host, body)
    assert seen["before"]["cookie"]["value"] == "deleteMe"
    assert seen["after"]["cookie"] is None
    assert _pairs(seen["kept"]) == {"existing=value"}
    structured, text = seen["cleared"]
    assert structured["result"]["cookies"] == [] and "no cookies" in text.lower()

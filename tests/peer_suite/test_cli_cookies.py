"""cli-cookies.spec.ts: `playwright-cli cookie-*` call the `storage` capability's cookie tools;
here they are called as ours, on one session's context, and the facts a model reads are checked
(names, values, domain, path, flags), not the peer's line layout."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-cookies.spec.ts"
PEER_CASES = {
    "cookie-list shows no cookies when empty": "test_cookie_list_set_get_delete_and_clear",
    "cookie-set and cookie-get": "test_cookie_list_set_get_delete_and_clear",
    "cookie-list shows cookies": "test_cookie_list_set_get_delete_and_clear",
    "cookie-delete removes cookie": "test_cookie_list_set_get_delete_and_clear",
    "cookie-clear removes all cookies": "test_cookie_list_set_get_delete_and_clear",
}


def test_cookie_list_set_get_delete_and_clear(host: ServedHost, server: PeerSite) -> None:
    async def result(agent: Agent, tool: str, args: dict[str, Any]) -> tuple[Any, str]:
        structured, text = await called(agent, tool, args)
        return structured["result"], text

    async def body(agent: Agent) -> dict[str, Any]:
        facts: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        facts["empty"] = await result(agent, "browser_cookie_list", {})
        for name, value in (("cookie1", "value1"), ("cookie2", "value2")):
            await called(agent, "browser_cookie_set", {"name": name, "value": value})
        facts["two"] = await result(agent, "browser_cookie_list", {})
        await called(agent, "browser_cookie_set", {"name": "testCookie", "value": "testValue"})
        facts["got"] = await result(agent, "browser_cookie_get", {"name": "testCookie"})
        facts["page_sees"] = await agent.ok("browser_evaluate", {"function": "document.cookie"})
        await called(agent, "browser_cookie_delete", {"name": "testCookie"})
        facts["deleted"] = await result(agent, "browser_cookie_get", {"name": "testCookie"})
        await called(agent, "browser_cookie_clear", {})
        facts["cleared"] = await result(agent, "browser_cookie_list", {})
        return facts

    facts = with_agent(host, body)
    assert facts["empty"][0] == {"cookies": []}, facts["empty"]
    assert "no cookies" in facts["empty"][1]
    two = facts["two"][0]["cookies"]
    assert [(c["name"], c["value"], c["path"]) for c in two] == [
        ("cookie1", "value1", "/"),
        ("cookie2", "value2", "/"),
    ]
    assert all(c["domain"] == "127.0.0.1" for c in two)
    assert "cookie1=value1" in facts["two"][1] and "cookie2=value2" in facts["two"][1]
    got, got_text = facts["got"]
    cookie = got["cookie"]
    assert (cookie["name"], cookie["value"], cookie["path"]) == ("testCookie", "testValue", "/")
    assert {"domain", "httpOnly", "secure", "sameSite"} <= set(cookie)
    assert "testCookie=testValue" in got_text
    assert "testCookie=testValue" in str(facts["page_sees"])  # the page has it too
    assert facts["deleted"][0] == {"cookie": None}
    assert "testCookie" in facts["deleted"][1]  # says which cookie it did not find
    assert facts["cleared"][0] == {"cookies": []}

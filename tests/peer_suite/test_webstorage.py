"""webstorage.spec.ts: the `storage` capability's localStorage and sessionStorage tools (list,
get, set, delete, clear) on the current tab's origin, each storage apart from the other."""

from __future__ import annotations

from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "webstorage.spec.ts"
CAPS_TEST = (
    "host_agent/test_browser_tools.py::"
    "test_capability_tools_are_listed_and_callable_only_with_their_capability"
)
EACH = "test_each_storage_lists_gets_sets_deletes_and_clears"
PEER_CASES = {
    f"browser_{kind}_{case}": where
    for kind in ("localstorage", "sessionstorage")
    for case, where in {
        "list unavailable without storage capability": CAPS_TEST,
        "list shows no items when empty": EACH,
        f"set and browser_{kind}_get": EACH,
        "list shows items": EACH,
        "get returns not found for missing key": EACH,
        "delete removes item": EACH,
        "clear removes all items": EACH,
    }.items()
} | {"localStorage and sessionStorage are isolated": "test_local_and_session_storage_are_apart"}

PAGE_VIEW = "() => JSON.stringify(Object.entries({kind}).sort())"


def _pairs(result: dict[str, Any]) -> set[str]:
    return {f"{item['name']}={item['value']}" for item in result["items"]}


@pytest.mark.parametrize("kind", ["localstorage", "sessionstorage"])
def test_each_storage_lists_gets_sets_deletes_and_clears(
    host: ServedHost, server: PeerSite, kind: str
) -> None:
    tool = f"browser_{kind}_"
    storage = {"localstorage": "localStorage", "sessionstorage": "sessionStorage"}[kind]

    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        seen["empty"] = await called(agent, tool + "list", {})
        await agent.ok(tool + "set", {"key": "testKey", "value": "testValue"})
        seen["got"] = await called(agent, tool + "get", {"key": "testKey"})
        await agent.ok(tool + "set", {"key": "key2", "value": "value2"})
        seen["listed"] = await called(agent, tool + "list", {})
        seen["page"] = await agent.ok(
            "browser_evaluate", {"function": PAGE_VIEW.format(kind=storage)}
        )
        seen["missing"] = await called(agent, tool + "get", {"key": "nonexistent"})
        await agent.ok(tool + "delete", {"key": "testKey"})
        seen["deleted"] = await agent.ok(tool + "get", {"key": "testKey"})
        seen["left"] = await agent.ok(tool + "list", {})
        await agent.ok(tool + "set", {"key": "key3", "value": "value3"})
        await agent.ok(tool + "clear", {})
        seen["cleared"] = await called(agent, tool + "list", {})
        return seen

    seen = with_agent(host, body)
    structured, text = seen["empty"]
    assert structured["result"]["items"] == [] and "empty" in text
    structured, text = seen["got"]
    assert structured["result"]["value"] == "testValue" and "testValue" in text
    structured, text = seen["listed"]
    assert _pairs(structured["result"]) == {"testKey=testValue", "key2=value2"}
    assert "testKey=testValue" in text and "key2=value2" in text
    assert seen["page"] == '[["key2","value2"],["testKey","testValue"]]'
    structured, text = seen["missing"]
    assert structured["result"]["value"] is None and "no key 'nonexistent'" in text
    assert seen["deleted"]["value"] is None
    assert _pairs(seen["left"]) == {"key2=value2"}
    structured, text = seen["cleared"]
    assert structured["result"]["items"] == [] and "empty" in text


def test_local_and_session_storage_are_apart(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> list[Any]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        await agent.ok("browser_localstorage_set", {"key": "sharedKey", "value": "localValue"})
        await agent.ok("browser_sessionstorage_set", {"key": "sharedKey", "value": "sessionValue"})
        seen = [
            await agent.ok("browser_localstorage_get", {"key": "sharedKey"}),
            await agent.ok("browser_sessionstorage_get", {"key": "sharedKey"}),
        ]
        await agent.ok("browser_localstorage_clear", {})
        seen.append(await agent.ok("browser_localstorage_get", {"key": "sharedKey"}))
        seen.append(await agent.ok("browser_sessionstorage_get", {"key": "sharedKey"}))
        return [item["value"] for item in seen]

    assert with_agent(host, body) == ["localValue", "sessionValue", None, "sessionValue"]

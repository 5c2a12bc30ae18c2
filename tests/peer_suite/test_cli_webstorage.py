"""cli-webstorage.spec.ts: `playwright-cli localstorage-*` and `sessionstorage-*` call the
`storage` capability's web storage tools; here they are called as ours on the current tab's
origin, for both storages."""

from __future__ import annotations

from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-webstorage.spec.ts"
PEER_CASES = {
    f"{kind}storage-{case}": "test_storage_list_set_get_delete_and_clear"
    for kind in ("local", "session")
    for case in (
        "list shows no items when empty",
        f"set and {kind}storage-get",
        "list shows items",
        "delete removes item",
        "clear removes all items",
    )
}


@pytest.mark.parametrize("kind", ["local", "session"])
def test_storage_list_set_get_delete_and_clear(
    host: ServedHost, server: PeerSite, kind: str
) -> None:
    tool = f"browser_{kind}storage_"

    async def result(agent: Agent, name: str, args: dict[str, Any]) -> tuple[Any, str]:
        structured, text = await called(agent, tool + name, args)
        return structured["result"], text

    async def body(agent: Agent) -> dict[str, Any]:
        facts: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        facts["empty"] = await result(agent, "list", {})
        await called(agent, tool + "set", {"key": "testKey", "value": "testValue"})
        facts["got"] = await result(agent, "get", {"key": "testKey"})
        facts["page_sees"] = await agent.ok(
            "browser_evaluate", {"function": f"() => {kind}Storage.getItem('testKey')"}
        )
        await called(agent, tool + "delete", {"key": "testKey"})
        facts["deleted"] = await result(agent, "get", {"key": "testKey"})
        for key, value in (("key1", "value1"), ("key2", "value2")):
            await called(agent, tool + "set", {"key": key, "value": value})
        facts["two"] = await result(agent, "list", {})
        await called(agent, tool + "clear", {})
        facts["cleared"] = await result(agent, "list", {})
        return facts

    facts = with_agent(host, body)
    assert facts["empty"][0] == {"items": []} and "empty" in facts["empty"][1]
    assert facts["got"][0] == {"key": "testKey", "value": "testValue"}
    assert "testKey=testValue" in facts["got"][1]
    assert facts["page_sees"] == "testValue"
    assert facts["deleted"][0] == {"key": "testKey", "value": None}
    assert "no key 'testKey'" in facts["deleted"][1]  # the peer's "not found"
    assert facts["two"][0] == {
        "items": [{"name": "key1", "value": "value1"}, {"name": "key2", "value": "value2"}]
    }
    assert "key1=value1" in facts["two"][1] and "key2=value2" in facts["two"][1]
    assert facts["cleared"][0] == {"items": []}

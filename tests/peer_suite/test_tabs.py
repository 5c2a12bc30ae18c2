"""tabs.spec.ts: `browser_tabs` lists, opens (with and without a URL), selects and closes tabs.

The peer prints each tab as `- 0: (current) [title](url)`; this host answers the same facts as
structured `tabs` (index, url, title, current), which these compare."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent

SPEC = "tabs.spec.ts"
PEER_CASES = {
    "list initial tabs": "test_list_initial_tabs",
    "list first tab": "test_list_first_tab",
    "create new tab": "test_create_new_tab",
    "create new tab with url": "test_create_new_tab_with_url",
    "select tab": "test_select_tab",
    "close tab": "test_close_tab",
    "reuse first tab when navigating": (
        "differs: with --cdp-endpoint each MCP session gets a browser context of its own in "
        "the connected browser (sessions stay isolated from each other and from the browser's "
        "own tabs), so the tab the browser already had is not the one navigated"
    ),
}

BLANK = (0, "about:blank", "")


def page_url(title: str, body: str) -> str:
    return f"data:text/html,<title>{title}</title><body>{body}</body>"


ONE = page_url("Tab one", "Body one")
TWO = page_url("Tab two", "Body two")


def tabs_of(value: dict[str, Any]) -> list[tuple[int, str, str, bool]]:
    """(index, url, title, current) of each tab a browser_tabs result lists."""
    return [(t["index"], t["url"], t["title"], t["current"]) for t in value["result"]["tabs"]]


async def create_tab(agent: Agent, url: str) -> tuple[dict[str, Any], str]:
    """The peer's createTab: a new tab, then navigate it."""
    await called(agent, "browser_tabs", {"action": "new"})
    return await called(agent, "browser_navigate", {"url": url})


def test_list_initial_tabs(host: ServedHost) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        return (await called(agent, "browser_tabs", {"action": "list"}))[0]

    assert tabs_of(with_agent(host, body)) == [(*BLANK, True)]


def test_list_first_tab(host: ServedHost) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        await create_tab(agent, ONE)
        return (await called(agent, "browser_tabs", {"action": "list"}))[0]

    assert tabs_of(with_agent(host, body)) == [(*BLANK, False), (1, ONE, "Tab one", True)]


def test_create_new_tab(host: ServedHost) -> None:
    async def body(agent: Agent) -> tuple[Any, ...]:
        first, _ = await create_tab(agent, ONE)
        _, first_snapshot = await called(agent, "browser_snapshot", {})
        second, _ = await create_tab(agent, TWO)
        _, second_snapshot = await called(agent, "browser_snapshot", {})
        listed, _ = await called(agent, "browser_tabs", {"action": "list"})
        return first, first_snapshot, second, second_snapshot, listed

    first, first_snapshot, second, second_snapshot, listed = with_agent(host, body)
    assert (first["result"]["tabs"], first["result"]["tab"]) == (2, 1)
    assert "- generic [active] [ref=e1]: Body one" in first_snapshot
    assert (second["result"]["tabs"], second["result"]["tab"]) == (3, 2)
    assert second["result"]["url"] == TWO
    assert "- generic [active] [ref=e1]: Body two" in second_snapshot
    assert tabs_of(listed) == [
        (*BLANK, False),
        (1, ONE, "Tab one", False),
        (2, TWO, "Tab two", True),
    ]


def test_create_new_tab_with_url(host: ServedHost) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        return (await called(agent, "browser_tabs", {"action": "new", "url": ONE}))[0]

    assert tabs_of(with_agent(host, body)) == [(*BLANK, False), (1, ONE, "Tab one", True)]


def test_select_tab(host: ServedHost) -> None:
    async def body(agent: Agent) -> tuple[dict[str, Any], dict[str, Any], str]:
        await create_tab(agent, ONE)
        await create_tab(agent, TWO)
        to_one, _ = await called(agent, "browser_tabs", {"action": "select", "index": 1})
        _, snapshot = await called(agent, "browser_snapshot", {})
        to_blank, _ = await called(agent, "browser_tabs", {"action": "select", "index": 0})
        return to_one, to_blank, snapshot

    to_one, to_blank, snapshot = with_agent(host, body)
    assert tabs_of(to_one) == [
        (*BLANK, False),
        (1, ONE, "Tab one", True),
        (2, TWO, "Tab two", False),
    ]
    assert "Body one" in snapshot  # tools act on the tab selected
    assert tabs_of(to_blank) == [
        (*BLANK, True),
        (1, ONE, "Tab one", False),
        (2, TWO, "Tab two", False),
    ]


def test_close_tab(host: ServedHost) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        await create_tab(agent, ONE)
        await create_tab(agent, TWO)
        return (await called(agent, "browser_tabs", {"action": "close", "index": 2}))[0]

    # The peer's current tab after closing the last one is the one before it.
    assert tabs_of(with_agent(host, body)) == [(*BLANK, False), (1, ONE, "Tab one", True)]

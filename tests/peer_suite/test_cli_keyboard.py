"""cli-keyboard.spec.ts: `playwright-cli press` calls `browser_press_key`, here called as ours.
`keydown`/`keyup` call the peer's `browser_keydown`/`browser_keyup`, tools its MCP server does not
list (`skillOnly`: its command line's alone)."""

from __future__ import annotations

from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-keyboard.spec.ts"
PEER_CASES = {
    "press": "test_press_types_into_the_focused_textbox",
    "keydown keyup": (
        "differs: holding a key down and releasing it later are the peer's browser_keydown and "
        "browser_keyup, command-line-only tools its MCP server does not list either; over MCP "
        "a key is pressed whole (browser_press_key, checked by cli-keyboard 'press')"
    ),
}


def test_press_types_into_the_focused_textbox(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", "<input type=text>")

    async def body(agent: Agent) -> str:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        structured, _ = await called(agent, "browser_snapshot", {})
        await called(
            agent,
            "browser_click",
            {"target": find_ref(structured["result"]["snapshot"], "textbox")},
        )
        await called(agent, "browser_press_key", {"key": "h"})
        structured, _ = await called(agent, "browser_snapshot", {})
        return str(structured["result"]["snapshot"])

    assert with_agent(host, body) == "- textbox [active] [ref=e2]: h"

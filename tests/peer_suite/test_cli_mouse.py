"""cli-mouse.spec.ts: `playwright-cli mousemove`, `mousedown`, `mouseup` and `mousewheel` call
the `vision` capability's coordinate tools; the page logs what it received (cli-fixtures.ts's
`eventsPage`)."""

from __future__ import annotations

import asyncio
import time

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.cli_pages import EVENTS_PAGE
from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-mouse.spec.ts"
PEER_CASES = {
    "mousemove": "test_mouse_move_down_up_and_wheel",
    "mousedown mouseup": "test_mouse_move_down_up_and_wheel",
    "mousewheel": "test_mouse_move_down_up_and_wheel",
}

LOG = "() => [...document.querySelectorAll('#log div')].map(d => d.textContent)"


def test_mouse_move_down_up_and_wheel(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", EVENTS_PAGE)

    async def body(agent: Agent) -> tuple[list[str], list[str]]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        await called(agent, "browser_mouse_move_xy", {"x": 45, "y": 35})
        await called(agent, "browser_mouse_down", {})
        await called(agent, "browser_mouse_up", {})
        pressed = list(await agent.ok("browser_evaluate", {"function": LOG}))
        await called(agent, "browser_mouse_wheel", {"deltaX": 10, "deltaY": 5})
        # The wheel event reaches the page asynchronously: poll, as the peer's case does.
        deadline = time.monotonic() + 30
        while True:
            log = list(await agent.ok("browser_evaluate", {"function": LOG}))
            if "wheel 10 5" in log or time.monotonic() > deadline:
                return pressed, log
            await asyncio.sleep(0.1)

    pressed, log = with_agent(host, body)
    # The headless shell moves the mouse to (0, 0) when the page first lays out; the body starts
    # there, so that move is logged too. It is the browser's, not a tool's.
    pressed = [entry for entry in pressed if entry != "mouse move 0 0"]
    assert pressed[:3] == ["mouse move 45 35", "mouse down", "mouse up"], pressed
    assert "wheel 10 5" in log, log

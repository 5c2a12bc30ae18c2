"""mouse.spec.ts: `browser_mouse_click_xy` (capability `vision`) with the default, right and
middle buttons, two clicks and a delay between press and release, on a page that logs each
mouse event it gets (the peer's `eventsPage`); the log is read from the snapshot, as the peer
reads it."""

from __future__ import annotations

import re
from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "mouse.spec.ts"
PEER_CASES = {
    "browser_mouse_click_xy (default)": "test_mouse_click_xy",
    "browser_mouse_click_xy (right button)": "test_mouse_click_xy",
    "browser_mouse_click_xy (middle button)": "test_mouse_click_xy",
    "browser_mouse_click_xy (double click)": "test_mouse_click_xy",
    "browser_mouse_click_xy (delay)": "test_mouse_click_xy",
}

EVENTS_PAGE = """<!DOCTYPE html>
<html>
  <body style="width: 400px; height: 400px; margin: 0; padding: 0;">
    <div id='log'></div>
    <script>
      const logElement = document.querySelector('#log');
      const log = (...args) => {
        const el = document.createElement('div');
        el.textContent = args.join(' ');
        logElement.appendChild(el);
      };
      document.body.addEventListener('mousemove', (event) => {
        log('mousemove', event.clientX, event.clientY);
      });
      let downPressTime = undefined;
      document.body.addEventListener('mousedown', (event) => {
        downPressTime = performance.now();
        log('mousedown', 'button:' + event.button);
      });
      document.body.addEventListener('mouseup', (event) => {
        log('mouseup', 'button:' + event.button);
        if (downPressTime !== undefined)
          log('delta', Math.round(performance.now() - downPressTime));
      });
      document.body.addEventListener('click', (event) => {
        log('click', 'button:' + event.button);
      });
      document.body.addEventListener('dblclick', (event) => {
        log('dblclick', 'button:' + event.button);
      });
      document.body.addEventListener('contextmenu', (event) => {
        event.preventDefault();
        log('contextmenu', 'button:' + event.button);
      });
    </script>
  </body>
</html>"""

# Each case's arguments beyond {x: 100, y: 100} and what its log must show (the peer's regexes).
CASES: list[tuple[dict[str, Any], str]] = [
    ({}, r"mousemove 100 100.*mousedown button:0.*mouseup button:0.*click button:0"),
    (
        {"button": "right"},
        r"mousemove 100 100.*mousedown button:2(?=.*mouseup button:2)(?=.*contextmenu button:2)",
    ),
    ({"button": "middle"}, r"mousemove 100 100.*mousedown button:1.*mouseup button:1"),
    (
        {"clickCount": 2},
        r"mousemove 100 100.*mousedown button:0.*mouseup button:0.*dblclick button:0",
    ),
    # A lower bound: at least the 20 ms asked for passed between press and release.
    (
        {"delay": 20},
        r"mousemove 100 100.*mousedown button:0.*mouseup button:0.*delta (?:[2-9]\d|\d{3,})",
    ),
]


def test_mouse_click_xy(host: ServedHost, server: PeerSite) -> None:
    """The five cases in one session, each on a freshly loaded events page (the peer's
    beforeEach)."""
    server.set_content("/", EVENTS_PAGE)

    async def body(agent: Agent) -> list[str]:
        logs = []
        for extra, _ in CASES:
            await called(agent, "browser_navigate", {"url": server.PREFIX})
            await called(agent, "browser_mouse_click_xy", {"x": 100, "y": 100, **extra})
            logs.append((await called(agent, "browser_snapshot", {}))[1])
        return logs

    logs = with_agent(host, body)
    for (extra, pattern), log in zip(CASES, logs, strict=True):
        assert re.search(pattern, log, re.S), (extra, log)
    assert "dblclick" not in logs[0] and "contextmenu" not in logs[0]

"""wait.spec.ts: `browser_wait_for` waits for a text to appear, for a text to go (the peer's
`textGone`), and for a time."""

from __future__ import annotations

import time

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "wait.spec.ts"
PEER_CASES = {
    "browser_wait_for(text)": "test_wait_for_text_and_text_gone",
    "browser_wait_for(textGone)": "test_wait_for_text_and_text_gone",
    "browser_wait_for(time)": "test_wait_for_time",
}

PAGE = (
    "<script>function update() { setTimeout(() => {"
    " document.querySelector('div').textContent = 'Text to appear'; }, 1000); }</script>"
    '<body><button onclick="update()">Click me</button><div>Text to disappear</div></body>'
)


def test_wait_for_text_and_text_gone(host: ServedHost, server: PeerSite) -> None:
    """Both peer cases, each in its own session: the text changes a second after the click."""
    server.set_content("/", PAGE)

    def waited(args: dict[str, str]) -> tuple[str, str]:
        async def body(agent: Agent) -> tuple[str, str]:
            await called(agent, "browser_navigate", {"url": server.PREFIX})
            _, before = await called(agent, "browser_snapshot", {})
            await called(agent, "browser_click", {"element": "Click me", "target": "e2"})
            await called(agent, "browser_wait_for", args)
            return before, (await called(agent, "browser_snapshot", {}))[1]

        return with_agent(host, body)

    for args in ({"text": "Text to appear"}, {"textGone": "Text to disappear"}):
        before, after = waited(args)
        assert "- generic [ref=e3]: Text to disappear" in before
        assert "- generic [ref=e3]: Text to appear" in after, (args, after)


def test_wait_for_time(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", "<body><div>Hello World</div></body>")

    async def body(agent: Agent) -> tuple[dict, float]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        started = time.monotonic()
        waited, _ = await called(agent, "browser_wait_for", {"time": 1})
        return waited, time.monotonic() - started

    waited, seconds = with_agent(host, body)
    assert seconds >= 1.0  # a lower bound: at least the second asked for
    assert waited["result"]["url"] == server.PREFIX + "/"

"""iframes.spec.ts: a snapshot stitches the frames of a page into one tree (refs inside a frame
carry its `f<n>` prefix; a hidden frame is left out), and a frame's ref is clicked like any."""

from __future__ import annotations

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent

SPEC = "iframes.spec.ts"
PEER_CASES = {
    "stitched aria frames": "test_stitched_aria_frames",
}

PAGE = (
    'data:text/html,<h1>Hello</h1><iframe src="data:text/html,<button>World</button><main>'
    "<iframe src='data:text/html,<p>Nested</p>'></iframe></main>\"></iframe>"
    '<iframe src="data:text/html,<h1>Should be invisible</h1>" style="display: none;"></iframe>'
)


def test_stitched_aria_frames(host: ServedHost) -> None:
    async def body(agent: Agent) -> tuple[str, dict, dict]:
        await called(agent, "browser_navigate", {"url": PAGE})
        snapshot = (await called(agent, "browser_snapshot", {}))[0]["result"]["snapshot"]
        clicked, _ = await called(agent, "browser_click", {"element": "World", "target": "f1e2"})
        # The peer's code line for the click: the locator the host generates for that ref.
        locator, _ = await called(agent, "browser_generate_locator", {"target": "f1e2"})
        return snapshot, clicked, locator

    snapshot, clicked, locator = with_agent(host, body)
    assert snapshot.startswith(
        "- generic [active] [ref=e1]:\n"
        '  - heading "Hello" [level=1] [ref=e2]\n'
        "  - iframe [ref=e3]:\n"
        "    - generic [ref=f1e1]:\n"
        '      - button "World" [ref=f1e2]\n'
        "      - main [ref=f1e3]:\n"
        "        - iframe [ref=f1e4]:\n"
        "          - paragraph [ref=f3e2]: Nested"
    )
    assert "Should be invisible" not in snapshot
    assert clicked["result"]["url"] == PAGE
    assert locator["result"]["locator"] == (
        'page.locator("iframe").nth(0).contentFrame().getByRole("button", { name: "World" })'
    )

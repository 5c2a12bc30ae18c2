"""device.spec.ts (the peer's emulation cases): `--device` and `--mobile` give pages the
device's viewport. The expected sizes come from Playwright's own device descriptors, read
through the Python package, not from numbers copied here."""

from __future__ import annotations

from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import serve_host
from playwright.sync_api import sync_playwright

from peer_suite.conftest import with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "device.spec.ts"
PEER_CASES = {
    "--device should work": "test_a_device_and_mobile_give_their_viewports",
    "--mobile emulates a mobile viewport": "test_a_device_and_mobile_give_their_viewports",
}

VIEWPORT_PROBE = """<head><meta name="viewport" content="width=device-width, initial-scale=1">
</head><body></body><script>
document.body.textContent = window.innerWidth + "x" + window.innerHeight;</script>"""


def descriptors(*names: str) -> dict[str, dict[str, Any]]:
    with sync_playwright() as playwright:
        return {name: playwright.devices[name] for name in names}


@pytest.mark.parametrize(
    ("option", "device"), [(("--device", "iPhone 15"), "iPhone 15"), (("--mobile",), "Pixel 10")]
)
def test_a_device_and_mobile_give_their_viewports(
    server: PeerSite, option: tuple[str, ...], device: str
) -> None:
    server.set_content("/", VIEWPORT_PROBE)
    viewport = descriptors(device)[device]["viewport"]
    host = serve_host(*option)
    try:

        async def body(agent: Agent) -> Any:
            await agent.ok("browser_navigate", {"url": server.PREFIX})
            return await agent.ok(
                "browser_evaluate", {"function": "() => document.body.textContent"}
            )

        shown = with_agent(host, body)
    finally:
        host.stop()
    assert shown == f"{viewport['width']}x{viewport['height']}"

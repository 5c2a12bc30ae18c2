"""dialogs.spec.ts: alert, two alerts, confirm, prompt, a dialog another client closes, and an
alert that opens after the click returned.

The peer's `modalState` is our `dialog` (a result's page feedback) and `dialogs` (every open
dialog, also on errors): what a model reads to know a dialog waits for browser_handle_dialog."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_agent.agent_client import Agent, text_of
from host_tests.host_helpers import ServedHost, remote_debugging_chromium, serve_host, wait_until
from playwright.async_api import async_playwright

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "dialogs.spec.ts"
PEER_CASES = {
    "alert dialog": "test_alert_dialog",
    "two alert dialogs": "test_two_alert_dialogs",
    "confirm dialog (true)": "test_confirm_dialog",
    "confirm dialog (false)": "test_confirm_dialog",
    "prompt dialog": "test_prompt_dialog",
    "dialog closed out of band": "test_a_dialog_closed_out_of_band_is_forgotten",
    "alert dialog w/ race": "test_an_alert_after_the_click_returned",
}

ALERT = "<title>Title</title><button onclick=\"alert('Alert')\">Button</button>"


async def open_and_click(agent: Agent, url: str) -> tuple[dict[str, Any], str]:
    """Navigate, snapshot, click the button (e2): the click's structured content and text."""
    await called(agent, "browser_navigate", {"url": url})
    _, snapshot = await called(agent, "browser_snapshot", {})
    assert '- button "Button" [ref=e2]' in snapshot, snapshot
    return await called(agent, "browser_click", {"element": "Button", "target": "e2"})


def test_alert_dialog(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", ALERT)

    async def body(agent: Agent) -> tuple[Any, ...]:
        clicked, clicked_text = await open_and_click(agent, server.PREFIX)
        again = await agent.call("browser_click", {"element": "Button", "target": "e2"})
        handled, _ = await called(agent, "browser_handle_dialog", {"accept": True})
        return clicked, clicked_text, again, handled

    clicked, clicked_text, again, handled = with_agent(host, body)
    assert clicked["result"]["dialog"] == {"type": "alert", "message": "Alert"}
    assert "dialog open: alert 'Alert' (answer with browser_handle_dialog)" in clicked_text
    # A second click does nothing while the alert waits, and says so.
    assert again.is_error and "[dialog_open]" in text_of(again)
    assert again.structured_content["dialogs"] == [{"type": "alert", "message": "Alert", "tab": 0}]
    result = handled["result"]
    assert result["handled"] == {"type": "alert", "message": "Alert", "accepted": True}
    assert "dialog" not in result and "dialogs" not in handled and result["title"] == "Title"


def test_two_alert_dialogs(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        "<title>Title</title><body><button onclick=\"alert('Alert 1');alert('Alert 2');\">"
        "Button</button></body>",
    )

    async def body(agent: Agent) -> tuple[Any, ...]:
        clicked, _ = await open_and_click(agent, server.PREFIX)
        first, _ = await called(agent, "browser_handle_dialog", {"accept": True})
        # The page opens the second alert as the first closes: results list it under `dialogs`
        # from then on (polled with a call that runs while a dialog is open).
        listed = first.get("dialogs")
        for _ in range(100):
            if listed:
                break
            await asyncio.sleep(0.05)
            listed = (await called(agent, "browser_tabs", {}))[0].get("dialogs")
        second, _ = await called(agent, "browser_handle_dialog", {"accept": True})
        return clicked, first, listed, second

    clicked, first, listed, second = with_agent(host, body)
    assert clicked["result"]["dialog"]["message"] == "Alert 1"
    assert first["result"]["handled"]["message"] == "Alert 1"
    assert listed == [{"type": "alert", "message": "Alert 2", "tab": 0}]
    assert second["result"]["handled"]["message"] == "Alert 2"
    assert "dialog" not in second["result"] and "dialogs" not in second


CONFIRM = (
    "<title>Title</title><body><button onclick=\"document.body.textContent = confirm('Confirm')\">"
    "Button</button></body>"
)


def test_confirm_dialog(host: ServedHost, server: PeerSite) -> None:
    """Both peer cases: accepted (true) and dismissed (false), each in its own session."""
    server.set_content("/", CONFIRM)

    def answered(accept: bool) -> tuple[Any, ...]:
        async def body(agent: Agent) -> tuple[Any, ...]:
            clicked, _ = await open_and_click(agent, server.PREFIX)
            handled, _ = await called(agent, "browser_handle_dialog", {"accept": accept})
            _, snapshot = await called(agent, "browser_snapshot", {})
            return clicked, handled, snapshot

        return with_agent(host, body)

    for accept in (True, False):
        clicked, handled, snapshot = answered(accept)
        assert clicked["result"]["dialog"] == {"type": "confirm", "message": "Confirm"}
        assert handled["result"]["handled"]["accepted"] is accept
        assert "dialog" not in handled["result"]
        assert f': "{str(accept).lower()}"' in snapshot  # what confirm() returned to the page


def test_prompt_dialog(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<title>Title</title><body><button onclick="document.body.textContent = '
        "prompt('Prompt')\">Button</button></body>",
    )

    async def body(agent: Agent) -> tuple[Any, ...]:
        clicked, _ = await open_and_click(agent, server.PREFIX)
        handled, _ = await called(
            agent, "browser_handle_dialog", {"accept": True, "promptText": "Answer"}
        )
        _, snapshot = await called(agent, "browser_snapshot", {})
        return clicked, handled, snapshot

    clicked, handled, snapshot = with_agent(host, body)
    assert clicked["result"]["dialog"]["type"] == "prompt"
    assert clicked["result"]["dialog"]["message"] == "Prompt"
    assert "dialog" not in handled["result"]
    assert "- generic [active] [ref=e1]: Answer" in snapshot


def test_an_alert_after_the_click_returned(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        "<title>Title</title><button onclick=\"setTimeout(() => alert('Alert'), 100)\">"
        "Button</button>",
    )

    async def body(agent: Agent) -> tuple[Any, ...]:
        clicked, _ = await open_and_click(agent, server.PREFIX)
        handled, _ = await called(agent, "browser_handle_dialog", {"accept": True})
        return clicked, handled

    clicked, handled = with_agent(host, body)
    # The click's result waits for what it set off, so the late alert is in it.
    assert clicked["result"]["dialog"] == {"type": "alert", "message": "Alert"}
    result = handled["result"]
    assert "dialog" not in result
    assert (result["url"], result["title"]) == (server.PREFIX + "/", "Title")


# -- a dialog another client closes -------------------------------------------------------------


@pytest.fixture(scope="module")
def cdp_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServedHost, str]]:
    """A Chromium of its own serving DevTools, and a host driving it (`--cdp-endpoint`), as the
    peer's `cdpServer`: another client can reach the same page."""
    profile: Path = tmp_path_factory.mktemp("cdp") / "profile"
    browser = remote_debugging_chromium(profile)
    served = None
    try:
        port_file = profile / "DevToolsActivePort"
        port = wait_until(
            lambda: port_file.exists() and port_file.read_text().split("\n")[0],
            "the debugging port",
        )
        endpoint = f"http://127.0.0.1:{port}"
        served = serve_host("--cdp-endpoint", endpoint)
        yield served, endpoint
    finally:
        if served is not None:
            served.stop()
        browser.terminate()
        browser.wait(30)


def test_a_dialog_closed_out_of_band_is_forgotten(
    cdp_host: tuple[ServedHost, str], server: PeerSite
) -> None:
    served, endpoint = cdp_host
    server.set_content("/", ALERT)

    async def body(agent: Agent) -> tuple[Any, ...]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        _, snapshot = await called(agent, "browser_snapshot", {})
        async with async_playwright() as driver:
            other = await driver.chromium.connect_over_cdp(endpoint)
            pages = [p for c in other.contexts for p in c.pages if p.url == server.PREFIX + "/"]
            assert len(pages) == 1, [p.url for c in other.contexts for p in c.pages]
            page = pages[0]
            # A listener keeps this client from dismissing the dialog itself; its DevTools
            # session is made before the dialog blocks the page, as the peer's is.
            page.on("dialog", lambda dialog: None)
            cdp = await page.context.new_cdp_session(page)
            await cdp.send("Page.enable")
            clicked, _ = await called(agent, "browser_click", {"element": "Button", "target": "e2"})
            await cdp.send("Page.handleJavaScriptDialog", {"accept": True})
            after = None
            for _ in range(100):  # poll, as the peer does, until the host has seen it close
                after = await agent.call("browser_snapshot", {})
                if not after.is_error and "dialog" not in (after.structured_content or {}).get(
                    "result", {}
                ):
                    break
                await asyncio.sleep(0.1)
            await other.close()
        return snapshot, clicked, after

    snapshot, clicked, after = with_agent(served, body)
    assert '- button "Button" [ref=e2]' in snapshot
    assert clicked["result"]["dialog"] == {"type": "alert", "message": "Alert"}
    assert after is not None and not after.is_error, text_of(after)
    assert "dialogs" not in (after.structured_content or {})
    assert '- button "Button"' in text_of(after)

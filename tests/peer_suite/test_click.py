"""click.spec.ts: `browser_click` with a ref, double, right, modifiers, the test id attribute the
host was started with, and a CSS target whose text looks like a ref.

The peer checks the Playwright code line it generates; this host has no code section, so these
check what the click did to the page and, where the code line was the point (the test id), the
locator the host generates for the element (`browser_generate_locator`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "click.spec.ts"
PEER_CASES = {
    "browser_click": "test_click_focuses_the_button",
    "browser_click (double)": "test_double_click",
    "browser_click (right)": "test_right_click",
    "browser_click (modifiers)": "test_click_with_modifiers",
    "browser_click (test id attribute)": "test_click_with_the_test_id_attribute",
    "browser_click (locator target containing aria-ref-like substring)": (
        "test_a_css_target_that_looks_like_a_ref_is_a_selector"
    ),
}


async def snapshot_of(agent: Agent) -> str:
    return (await called(agent, "browser_snapshot", {}))[1]


def test_click_focuses_the_button(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        "<title>Title</title><button>Submit</button><script>"
        "const button = document.querySelector('button');"
        "button.addEventListener('click', () => { button.focus(); });</script>",
    )

    async def body(agent: Agent) -> str:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        await snapshot_of(agent)
        await called(agent, "browser_click", {"element": "Submit button", "target": "e2"})
        return await snapshot_of(agent)

    assert 'button "Submit" [active] [ref=e2]' in with_agent(host, body)


def test_double_click(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        "<title>Title</title><script>function handle() {"
        " document.querySelector('h1').textContent = 'Double clicked'; }</script>"
        '<h1 ondblclick="handle()">Click me</h1>',
    )

    async def body(agent: Agent) -> str:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        await snapshot_of(agent)
        await called(
            agent, "browser_click", {"element": "Click me", "target": "e2", "doubleClick": True}
        )
        return await snapshot_of(agent)

    assert 'heading "Double clicked" [level=1] [ref=e3]' in with_agent(host, body)


def test_right_click(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<button oncontextmenu="handle">Menu</button><script>'
        "document.addEventListener('contextmenu', event => { event.preventDefault();"
        " document.querySelector('button').textContent = 'Right clicked'; });</script>",
    )

    async def body(agent: Agent) -> str:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        await snapshot_of(agent)
        await called(agent, "browser_click", {"element": "Menu", "target": "e2", "button": "right"})
        return await snapshot_of(agent)

    assert 'button "Right clicked"' in with_agent(host, body)


def test_click_with_modifiers(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<title>Title</title><button>Submit</button><div id="div"></div><script>'
        "document.addEventListener('click', event => {"
        " document.querySelector('div').textContent = 'ctrlKey:' + event.ctrlKey +"
        " ' metaKey:' + event.metaKey + ' shiftKey:' + event.shiftKey + ' altKey:' +"
        " event.altKey; });</script>",
    )

    async def body(agent: Agent) -> list[str]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        await snapshot_of(agent)
        seen = []
        for modifiers in (["Control"], ["Shift"], ["Shift", "Alt"]):
            await called(
                agent,
                "browser_click",
                {"element": "Submit button", "target": "e2", "modifiers": modifiers},
            )
            seen.append(await snapshot_of(agent))
        return seen

    control, shift, shift_alt = with_agent(host, body)
    assert "generic [ref=e3]: ctrlKey:true metaKey:false shiftKey:false altKey:false" in control
    assert "generic [ref=e3]: ctrlKey:false metaKey:false shiftKey:true altKey:false" in shift
    assert "generic [ref=e3]: ctrlKey:false metaKey:false shiftKey:true altKey:true" in shift_alt


@pytest.fixture(scope="module")
def testid_host() -> Iterator[ServedHost]:
    """A host started with the peer's `--test-id-attribute data-tid` (and `testing`, for
    browser_generate_locator)."""
    served = serve_host("--caps", "testing", "--test-id-attribute", "data-tid")
    yield served
    served.stop()


def test_click_with_the_test_id_attribute(testid_host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<title>Title</title><button data-tid="submit" onclick="document.title = \'clicked\'">'
        "Submit</button>",
    )

    async def body(agent: Agent) -> tuple[dict, dict, dict]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        await snapshot_of(agent)
        clicked, _ = await called(
            agent, "browser_click", {"element": "Submit button", "target": "e2"}
        )
        locator, _ = await called(agent, "browser_generate_locator", {"target": "e2"})
        by_test_id, _ = await called(agent, "browser_click", {"target": "testid=submit"})
        return clicked["result"], locator["result"], by_test_id["result"]

    clicked, locator, by_test_id = with_agent(testid_host, body)
    assert clicked["title"] == "clicked" and by_test_id["title"] == "clicked"
    # The peer's code line, `page.getByTestId('submit')`: the locator names the test id.
    assert locator["locator"] == 'page.getByTestId("submit")', locator
    assert locator["python"] == 'page.get_by_test_id("submit")', locator


def test_a_css_target_that_looks_like_a_ref_is_a_selector(
    host: ServedHost, server: PeerSite
) -> None:
    server.set_content(
        "/",
        '<title>Title</title><button id="z2l9e43l3" onclick="document.title = \'clicked\'">'
        "Submit</button>",
    )

    async def body(agent: Agent) -> dict:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        clicked, _ = await called(
            agent, "browser_click", {"element": "Submit button", "target": "#z2l9e43l3"}
        )
        return clicked["result"]

    assert with_agent(host, body)["title"] == "clicked"

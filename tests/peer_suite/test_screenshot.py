"""screenshot.spec.ts: `browser_take_screenshot` returns the viewport, the full page or one element
as an image of the type asked (png by default, jpeg, webp), shrunk to fit a model's message past
1568 pixels a side or 1.15 megapixels; with a filename it saves the file and returns its path
instead; `scale: device` gives device pixels; fullPage with a target is refused."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from host_agent.agent_client import Agent, find_ref, text_of
from host_tests.host_helpers import ServedHost, serve_host

from host.tools.image_fit import image_size
from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "screenshot.spec.ts"
PEER_CASES = {
    "browser_take_screenshot (viewport)": "test_screenshots_of_the_viewport_an_element_the_page",
    "browser_take_screenshot (element)": "test_screenshots_of_the_viewport_an_element_the_page",
    "--output-dir should work": (
        "differs: a screenshot is written to disk only when a filename is given (this host does "
        "not evict output files, so nothing a caller did not ask for piles up); with one, it is "
        "saved under --output-dir's screenshots/ and its path returned"
    ),
    "browser_take_screenshot (type: png)": "test_screenshot_types_and_file_names",
    "browser_take_screenshot (type: jpeg)": "test_screenshot_types_and_file_names",
    "browser_take_screenshot (type: webp)": "test_screenshot_types_and_file_names",
    "browser_take_screenshot (default type should be png)": "test_screenshot_types_and_file_names",
    "browser_take_screenshot (filename is empty string)": "test_screenshot_types_and_file_names",
    'browser_take_screenshot (filename: "output.png")': "test_screenshot_types_and_file_names",
    "browser_take_screenshot (imageResponses=omit)": (
        "host_tests/test_peer_options.py::test_peer_options_take_effect_in_a_real_host"
    ),
    "browser_take_screenshot (fullPage: true)": "test_screenshots_of_the_viewport_an_element_the_page",
    "browser_take_screenshot size cap": "test_an_image_is_shrunk_to_fit_a_message",
    "browser_take_screenshot (scale: device)": "test_scale_device_gives_device_pixels",
    "browser_take_screenshot (fullPage with element should error)": (
        "test_screenshots_of_the_viewport_an_element_the_page"
    ),
    "browser_take_screenshot (viewport without snapshot)": (
        "test_a_viewport_screenshot_needs_no_snapshot"
    ),
}

MAGIC = {
    "image/png": b"\x89PNG\r\n\x1a\n",
    "image/jpeg": b"\xff\xd8\xff",
    "image/webp": b"RIFF",
}


def _images(result: types.CallToolResult) -> list[tuple[str, bytes]]:
    """Each image of a result: its MIME type and its bytes (checked to be of that type)."""
    found = []
    for block in result.content:
        if isinstance(block, types.ImageContent):
            data = base64.b64decode(block.data)
            assert data.startswith(MAGIC[block.mime_type]), block.mime_type
            found.append((block.mime_type, data))
    return found


async def _shot(agent: Agent, args: dict[str, Any]) -> tuple[str, bytes]:
    """The one image of a screenshot that must succeed."""
    result = await agent.call("browser_take_screenshot", args)
    assert not result.is_error, text_of(result)
    [image] = _images(result)
    return image


def test_screenshots_of_the_viewport_an_element_the_page(
    host: ServedHost, server: PeerSite
) -> None:
    tall = server.set_content("/tall", "<body style='margin: 0; height: 2000px'>Tall</body>")

    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        viewport = await _shot(agent, {})
        _, snapshot = await called(agent, "browser_snapshot", {})
        target = find_ref(snapshot, "Hello, world!")
        element = await _shot(agent, {"element": "hello button", "target": target})
        contradiction = await refused(
            agent,
            "browser_take_screenshot",
            {"fullPage": True, "element": "hello button", "target": target},
        )
        await agent.ok("browser_navigate", {"url": tall})
        page = await _shot(agent, {"fullPage": True})
        return viewport, element, contradiction, page

    viewport, element, contradiction, page = with_agent(host, body)
    assert viewport[0] == "image/png" and image_size(viewport[1]) == (1280, 720)
    # The element's image is the element's size, smaller than the viewport's.
    assert element[0] == "image/png"
    width, height = image_size(element[1]) or (0, 0)
    assert 0 < width <= 1280 and 0 < height < 720, (width, height)
    assert "[invalid_argument]" in contradiction and "contradict" in contradiction
    # The full page, past the viewport's bottom: 1280x2000, shrunk to fit a message (at most
    # 1.15 megapixels), its proportions kept.
    assert page[0] == "image/png"
    width, height = image_size(page[1]) or (0, 0)
    assert 1.1e6 < width * height <= 1.15 * 1024 * 1024, (width, height)
    assert abs(width / height - 1280 / 2000) < 0.01, (width, height)


def test_screenshot_types_and_file_names(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/hello-world"})
        images = {kind: await _shot(agent, {"type": kind}) for kind in ("png", "jpeg", "webp")}
        default = await _shot(agent, {})
        empty_name = await _shot(agent, {"filename": ""})
        saved = await agent.call("browser_take_screenshot", {"filename": "output.png"})
        webp_file = await agent.ok("browser_take_screenshot", {"filename": "shot.webp"})
        return images, default, empty_name, saved, webp_file

    images, default, empty_name, saved, webp_file = with_agent(host, body)
    for kind, (mime, _) in images.items():
        assert mime == f"image/{kind}"
    assert default[0] == "image/png"
    assert empty_name[0] == "image/png"  # an empty filename is none: the image comes back
    # With a filename: the path, no image; the file holds the PNG.
    assert not saved.is_error and not _images(saved), text_of(saved)
    path = Path((saved.structured_content or {})["result"]["path"])
    assert path.name == "output.png" and path.parent.name == "screenshots", path
    assert path.read_bytes().startswith(MAGIC["image/png"])
    assert "output.png" in text_of(saved)
    # The type follows the file name's extension.
    webp = Path(webp_file["path"])
    assert webp.name == "shot.webp" and webp_file["type"] == "webp"
    assert webp.read_bytes()[8:12] == b"WEBP"


def test_an_image_is_shrunk_to_fit_a_message(host: ServedHost, server: PeerSite) -> None:
    # As the peer's: page size → the size of the image a model gets (the viewport is 1280x720).
    expectations = [
        (2000, 500, 1568, 720 * 1568 // 2000),
        (2000, 2000, 1098, 1098),
        (1280, 800, 1280, 800),
    ]

    async def body(agent: Agent) -> list[tuple[Any, ...]]:
        seen = []
        for width, height, _, _ in expectations:
            server.set_content(
                "/",
                f'<body style="width: {width}px; height: {height}px; background: red; '
                'margin: 0;"></body>',
            )
            await agent.ok("browser_navigate", {"url": server.PREFIX})
            png = await _shot(agent, {"fullPage": True})
            jpeg = await _shot(agent, {"fullPage": True, "type": "jpeg"})
            webp = await _shot(agent, {"fullPage": True, "type": "webp"})
            saved = await agent.ok("browser_take_screenshot", {"fullPage": True, "filename": "f"})
            seen.append((png, jpeg, webp, Path(saved["path"]).read_bytes()))
        return seen

    seen = with_agent(host, body)
    for (width, height, fit_width, fit_height), (png, jpeg, webp, saved) in zip(
        expectations, seen, strict=True
    ):
        assert (png[0], jpeg[0], webp[0]) == ("image/png", "image/jpeg", "image/webp")
        assert image_size(png[1]) == (fit_width, fit_height), (width, height)
        assert image_size(jpeg[1]) == (fit_width, fit_height), (width, height)
        assert image_size(webp[1]) == (fit_width, fit_height), (width, height)
        # A saved file keeps the page's whole size.
        assert image_size(saved) == (width, max(height, 720)), (width, height)


@pytest.fixture(scope="module")
def hidpi_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """A host whose pages are 400x300 CSS pixels at a device pixel ratio of 2."""
    served = serve_host(
        "--device",
        "Desktop Chrome HiDPI",
        "--viewport-size",
        "400x300",
        "--output-dir",
        str(tmp_path_factory.mktemp("output")),
    )
    yield served
    served.stop()


def test_scale_device_gives_device_pixels(hidpi_host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        default = await _shot(agent, {})
        css = await _shot(agent, {"scale": "css"})
        device = await _shot(agent, {"scale": "device"})
        wrong = await refused(agent, "browser_take_screenshot", {"scale": "print"})
        return default, css, device, wrong

    default, css, device, wrong = with_agent(hidpi_host, body)
    assert image_size(default[1]) == (400, 300)
    assert image_size(css[1]) == (400, 300)
    assert image_size(device[1]) == (800, 600)
    assert "[invalid_argument]" in wrong and "(at scale)" in wrong


def test_a_viewport_screenshot_needs_no_snapshot(host: ServedHost) -> None:
    async def body(agent: Agent) -> tuple[Any, ...]:
        tabs = await agent.ok("browser_tabs", {"action": "list"})
        return tabs, await _shot(agent, {})

    tabs, (mime, data) = with_agent(host, body)
    assert [(t["url"], t["current"]) for t in tabs["tabs"]] == [("about:blank", True)], tabs
    assert mime == "image/png" and image_size(data) == (1280, 720)

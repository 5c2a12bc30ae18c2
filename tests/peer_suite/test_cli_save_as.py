"""cli-save-as.spec.ts: `playwright-cli screenshot` and `pdf` call `browser_take_screenshot` and
`browser_pdf_save`; here they are called as ours, and the images and files are read back (PNG
size, WebP and PDF magic), not the names the program gives its attachments. The host's pages are
400x300 CSS pixels at a device pixel ratio of 2, so that `--hires` (the peer's `scale: device`)
shows in the image's size."""

from __future__ import annotations

import base64
import struct
from collections.abc import Iterator
from pathlib import Path

import mcp_types as types
import pytest
from host_agent.agent_client import Agent, text_of
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-save-as.spec.ts"
PEER_CASES = {
    "screenshot": "test_screenshots_of_the_viewport_an_element_and_the_full_page",
    "screenshot <ref>": "test_screenshots_of_the_viewport_an_element_and_the_full_page",
    "screenshot --full-page": "test_screenshots_of_the_viewport_an_element_and_the_full_page",
    "screenshot --hires": "test_screenshots_of_the_viewport_an_element_and_the_full_page",
    "screenshot --filename": "test_screenshot_and_pdf_saved_under_a_filename",
    "screenshot --filename infers webp from extension": (
        "test_screenshot_and_pdf_saved_under_a_filename"
    ),
    "pdf": "test_screenshot_and_pdf_saved_under_a_filename",
    "pdf --filename": "test_screenshot_and_pdf_saved_under_a_filename",
}

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """The suite's host with pages of 400x300 CSS pixels at a device pixel ratio of 2."""
    served = serve_host(
        "--caps",
        "vision,pdf,testing,storage,network",
        "--device",
        "Desktop Chrome HiDPI",
        "--viewport-size",
        "400x300",
        "--output-dir",
        str(tmp_path_factory.mktemp("output")),
    )
    yield served
    served.stop()


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data.startswith(PNG_MAGIC), data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def image_of(agent: Agent, args: dict[str, object]) -> bytes:
    result = await agent.call("browser_take_screenshot", args)
    assert not result.is_error, text_of(result)
    images = [b for b in result.content if isinstance(b, types.ImageContent)]
    assert len(images) == 1 and images[0].mime_type == "image/png", result.content
    return base64.b64decode(images[0].data)


def test_screenshots_of_the_viewport_an_element_and_the_full_page(
    host: ServedHost, server: PeerSite
) -> None:
    server.set_content(
        "/",
        '<div id="square" style="width: 100px; height: 100px; background-color: red;"></div>'
        '<div style="height: 2000px"></div>',
    )

    async def body(agent: Agent) -> list[bytes]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        return [
            await image_of(agent, {}),
            await image_of(agent, {"target": "#square"}),
            await image_of(agent, {"fullPage": True}),
            await image_of(agent, {"scale": "device"}),  # the peer's `--hires`
        ]

    viewport, element, full, hires = with_agent(host, body)
    assert png_size(viewport) == (400, 300)  # CSS pixels by default
    assert png_size(element) == (100, 100)
    full_width, full_height = png_size(full)
    # The whole page: taller than the viewport, and (however it is shrunk to fit a model's
    # message) at least 2,000 pixels high for every 400 wide.
    assert full_height > 300 and full_height * 400 >= 2000 * full_width
    assert png_size(hires) == (800, 600)  # device pixels


def test_screenshot_and_pdf_saved_under_a_filename(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> list[dict[str, object]]:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        saved = []
        for tool, args in (
            ("browser_take_screenshot", {"filename": "screenshot.png"}),
            ("browser_take_screenshot", {"filename": "screenshot.webp"}),
            ("browser_pdf_save", {}),
            ("browser_pdf_save", {"filename": "pdf.pdf"}),
        ):
            structured, _ = await called(agent, tool, args)
            saved.append(structured["result"])
        return saved

    shot, webp, pdf, named_pdf = with_agent(host, body)
    shot_path = Path(str(shot["path"]))
    assert shot_path.name == "screenshot.png" and png_size(shot_path.read_bytes())
    # The type follows the name's extension.
    webp_path = Path(str(webp["path"]))
    data = webp_path.read_bytes()
    assert webp_path.name == "screenshot.webp" and webp["type"] == "webp"
    assert (data[:4], data[8:12]) == (b"RIFF", b"WEBP")
    for saved in (pdf, named_pdf):
        assert Path(str(saved["path"])).read_bytes().startswith(b"%PDF-"), saved
    assert Path(str(named_pdf["path"])).name == "pdf.pdf"
    assert Path(str(pdf["path"])).suffix == ".pdf"

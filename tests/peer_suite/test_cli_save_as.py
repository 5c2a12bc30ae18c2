"""cli-save-as.spec.ts: `playwright-cli screenshot` and `pdf` call `browser_take_screenshot` and
`browser_pdf_save`; here they are called as ours, and the images and files are read back (PNG
size, PDF magic), not the names the program gives its attachments."""

from __future__ import annotations

import base64
import struct
from pathlib import Path

import mcp_types as types
from host_agent.agent_client import Agent, text_of
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-save-as.spec.ts"
PEER_CASES = {
    "screenshot": "test_screenshots_of_the_viewport_an_element_and_the_full_page",
    "screenshot <ref>": "test_screenshots_of_the_viewport_an_element_and_the_full_page",
    "screenshot --full-page": "test_screenshots_of_the_viewport_an_element_and_the_full_page",
    "screenshot --hires": (
        "todo: needs browser_take_screenshot's scale ('device'), which the screenshot.spec.ts "
        "translation adds to the host on another branch"
    ),
    "screenshot --filename": "test_screenshot_and_pdf_saved_under_a_filename",
    "screenshot --filename infers webp from extension": (
        "todo: needs browser_take_screenshot's webp type, which the screenshot.spec.ts "
        "translation adds to the host on another branch"
    ),
    "pdf": "test_screenshot_and_pdf_saved_under_a_filename",
    "pdf --filename": "test_screenshot_and_pdf_saved_under_a_filename",
}

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


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
        ]

    viewport, element, full = with_agent(host, body)
    width, height = png_size(viewport)
    assert png_size(element) == (100, 100)
    full_width, full_height = png_size(full)
    # The whole page is taller than the viewport; both as wide.
    assert full_width == width and full_height > height and full_height >= 2000


def test_screenshot_and_pdf_saved_under_a_filename(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> list[dict[str, object]]:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        saved = []
        for tool, args in (
            ("browser_take_screenshot", {"filename": "screenshot.png"}),
            ("browser_pdf_save", {}),
            ("browser_pdf_save", {"filename": "pdf.pdf"}),
        ):
            structured, _ = await called(agent, tool, args)
            saved.append(structured["result"])
        return saved

    shot, pdf, named_pdf = with_agent(host, body)
    shot_path = Path(str(shot["path"]))
    assert shot_path.name == "screenshot.png" and png_size(shot_path.read_bytes())
    for saved in (pdf, named_pdf):
        assert Path(str(saved["path"])).read_bytes().startswith(b"%PDF-"), saved
    assert Path(str(named_pdf["path"])).name == "pdf.pdf"
    assert Path(str(pdf["path"])).suffix == ".pdf"

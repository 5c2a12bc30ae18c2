"""Issue 11 item 4: `webBrowser`, one tool with twenty actions, through MCP (in memory),
one session per agent id."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from host_tests.host_helpers import host_config
from mcp import Client

from host.calls.core import Host
from host.calls.registry import ToolRegistry
from host.settings.config import HostConfig
from host.transports.mcp_server import build_server
from host_agent.agent_client import text_of
from host_agent.agent_pages import Pages

pytestmark = pytest.mark.browser

ACTIONS = [
    "navigate", "go_back", "go_forward", "close", "click", "fill", "select", "hover", "drag",
    "press_key", "delete", "get_visible_text", "get_html", "screenshot", "evaluate",
    "console_logs", "iframe_click", "iframe_fill", "upload_file", "click_and_switch_tab",
]  # fmt: skip


def test_the_descriptor_has_exactly_the_twenty_actions() -> None:
    tool = ToolRegistry().tools["webBrowser"]
    assert tool.parameters["properties"]["action"]["enum"] == ACTIONS
    assert len(tool.description) <= 400


def run(config: HostConfig, body: Any) -> Any:
    async def go() -> Any:
        async with Host(config) as host:
            server = build_server(host, host.registry.select(["web_browser"]))
            async with Client(server, mode="legacy") as client:
                names = [t.name for t in (await client.list_tools()).tools]
                assert names == ["webBrowser"]

                async def act(agent: str, action: str, **args: Any) -> types.CallToolResult:
                    return await client.call_tool(
                        "webBrowser", {"agentId": agent, "action": action, **args}
                    )

                return await body(act, host)

    return asyncio.run(go())


def ok(result: types.CallToolResult) -> Any:
    assert not result.is_error, text_of(result)
    return (result.structured_content or {}).get("result")


def test_every_action_in_chromium(pages: Pages, tmp_path: Path) -> None:
    uploads = tmp_path / "up"
    uploads.mkdir()
    (uploads / "a.txt").write_text("abc")
    storage = tmp_path / "store"
    config = host_config(upload_dirs=(uploads,), storage_dir=storage)

    async def body(act: Any, host: Host) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        ok(await act("a", "navigate", url=pages.url("/select"), waitUntil="domcontentloaded"))
        seen["select"] = ok(await act("a", "select", selector="#color", value="Blue"))["result"]
        ok(await act("a", "navigate", url=pages.url("/keys")))
        ok(await act("a", "go_back"))
        seen["back"] = ok(await act("a", "evaluate", value="location.pathname"))["result"]
        ok(await act("a", "go_forward"))
        ok(await act("a", "fill", selector="label=First", value="hello"))
        ok(await act("a", "press_key", key="End", selector="#a"))
        ok(await act("a", "press_key", key="!"))
        seen["typed"] = ok(await act("a", "evaluate", value="document.getElementById('a').value"))[
            "result"
        ]
        ok(await act("a", "delete", selector="#a"))
        seen["deleted"] = ok(
            await act("a", "evaluate", value="document.getElementById('a').value")
        )["result"]
        ok(await act("a", "navigate", url=pages.url("/drag")))
        ok(await act("a", "hover", selector="#hov"))
        ok(await act("a", "drag", selector="#src", targetSelector="#dst"))
        seen["text"] = ok(await act("a", "get_visible_text", selector="body"))["result"]
        ok(await act("a", "navigate", url=pages.url("/console")))
        ok(await act("a", "click", selector="text=Go"))
        seen["logs"] = ok(await act("a", "console_logs"))["result"]
        seen["logs_again"] = ok(await act("a", "console_logs"))["result"]
        ok(await act("a", "navigate", url=pages.url("/frame")))
        ok(await act("a", "iframe_fill", frameSelector="#inner", selector="#name", value="in"))
        ok(await act("a", "iframe_click", frameSelector="#inner", selector="#name"))
        seen["html"] = ok(await act("a", "get_html", depth=3))["result"]
        ok(await act("a", "navigate", url=pages.url("/upload")))
        ok(await act("a", "upload_file", selector="#drop", filePath="a.txt"))
        seen["uploaded"] = ok(await act("a", "get_visible_text", selector="#out"))["result"]
        seen["refused"] = text_of(
            await act("a", "upload_file", selector="#file", filePath="/etc/hosts")
        )
        seen["shot"] = ok(await act("a", "screenshot"))["result"]
        ok(await act("a", "navigate", url=pages.url("/blank")))
        switched = ok(await act("a", "click_and_switch_tab", selector="text=Open the second"))
        seen["switched"] = (switched["title"], switched["tabs"])
        closed = ok(await act("a", "close"))
        seen["popped"] = (closed["title"], closed["tabs"])
        seen["last"] = ok(await act("a", "close"))
        seen["sessions"] = len(host.sessions)
        return seen

    seen = run(config, body)
    assert seen["select"] == ["b"] and seen["back"] == "/select"
    assert seen["typed"] == "hello!" and seen["deleted"] == ""
    assert "dropped" in seen["text"] and "hovered" in seen["text"]
    assert "[log] clicked once" in seen["logs"] and "[error] bad thing" in seen["logs"]
    assert any("kaboom" in line for line in seen["logs"]) and seen["logs_again"] == []
    assert "<iframe" in seen["html"] and "<script" not in seen["html"]
    assert seen["uploaded"] == "a.txt:3" and "[upload_not_allowed]" in seen["refused"]
    shot = Path(seen["shot"])
    assert shot.parent == storage / "screenshots" and shot.read_bytes().startswith(b"\x89PNG")
    assert seen["switched"] == ("Second page", 2) and seen["popped"] == ("First tab", 1)
    assert "session ended" in seen["last"]["result"] and seen["sessions"] == 0


def test_get_html_drops_scripts_and_cuts_depth_and_screenshot_without_storage(
    pages: Pages,
) -> None:
    page = (
        "<div id=top><section><p><b>deep</b></p></section><script>var x = 1</script>"
        "<style>p{}</style><svg><circle/></svg><noscript>no</noscript></div>"
    )

    async def body(act: Any, host: Host) -> list[Any]:
        ok(await act("x", "navigate", url="data:text/html," + page))
        html = ok(await act("x", "get_html", selector="#top", depth=2))["result"]
        shot = await act("x", "screenshot")
        long = ok(await act("x", "evaluate", value="document.body.innerText = 'y'.repeat(20000)"))
        text = ok(await act("x", "get_visible_text"))["result"]
        return [html, shot, long, text]

    html, shot, _, text = run(host_config(), body)
    assert html == '<div id="top"><section>...</section></div>'
    image = shot.content[0]
    assert isinstance(image, types.ImageContent)
    assert base64.b64decode(image.data).startswith(b"\x89PNG")
    assert text.startswith("y" * 10_000) and text.endswith("[cut at 10000 characters]")


def test_an_action_reports_the_navigation_it_set_off_later(pages: Pages) -> None:
    """Issue 36 item 1 for webBrowser too: the click's result waits (--timeout-settle) for the
    navigation the page starts 100 ms after it, and names where it led."""

    async def body(act: Any, host: Host) -> Any:
        ok(await act("x", "navigate", url=pages.url("/later")))
        return await act("x", "click", selector="text=Go later")

    clicked = run(host_config(settle_timeout=1.5), body)
    assert not clicked.is_error, text_of(clicked)
    assert (clicked.structured_content or {})["result"]["url"] == pages.url("/second"), text_of(
        clicked
    )
    assert "Second page" in text_of(clicked)


def test_two_agents_never_see_each_other(pages: Pages) -> None:
    async def one(act: Any, agent: str) -> Any:
        ok(await act(agent, "navigate", url=pages.url("/whoami")))
        ok(await act(agent, "evaluate", value=f"document.cookie = 'who={agent}'"))
        ok(await act(agent, "navigate", url=pages.url("/whoami")))
        return ok(await act(agent, "get_visible_text", selector="#c"))["result"]

    async def body(act: Any, host: Host) -> list[Any]:
        results = list(await asyncio.gather(one(act, "red"), one(act, "blue")))
        return [*results, len(host.sessions)]

    assert run(host_config(), body) == ["who=red", "who=blue", 2]

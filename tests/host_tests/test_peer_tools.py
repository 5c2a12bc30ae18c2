"""Issue 36, tools to add: @playwright/mcp 0.0.83's tools the host lacked, under its names and
argument shapes, gated by its capabilities (`--caps`), each checked in real Chromium through the
official MCP SDK client by what the page does or what the call returns (translated from the
peer's tests/mcp cookies, webstorage, verify, mouse, network-offline, core and files specs).
Also: the acting ones recorded in a trail, replayed, exported to a Python test that runs and to a
TypeScript spec that `tsc --strict` accepts."""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import mcp_types as types
import pytest
from local_server import LocalServer, serve
from mcp import Client, StdioServerParameters

from host.calls.core import Host
from host.settings.caps import CAPS
from host.trails.trail import read_trail
from host.transports.mcp_server import build_server
from host_tests.host_helpers import HEADLESS_CHROMIUM, PYTHON, REPO, host_config

pytestmark = pytest.mark.browser

# The peer's argument names (required ones marked *) for every tool this issue adds.
PEER_SHAPES = {
    "browser_navigate_back": set(),
    "browser_press_key": {"key*"},
    "browser_drop": {"element", "target*", "paths", "data"},
    "browser_mouse_down": {"button"},
    "browser_mouse_up": {"button"},
    "browser_mouse_wheel": {"deltaX", "deltaY"},
    "browser_verify_element_visible": {"role*", "accessibleName*"},
    "browser_verify_text_visible": {"text*"},
    "browser_verify_list_visible": {"element*", "target*", "items*"},
    "browser_verify_value": {"type*", "element*", "target*", "value*"},
    "browser_generate_locator": {"element", "target*"},
    "browser_cookie_list": {"domain", "path"},
    "browser_cookie_get": {"name*"},
    "browser_cookie_set": {
        "name*",
        "value*",
        "domain",
        "path",
        "expires",
        "httpOnly",
        "secure",
        "sameSite",
    },
    "browser_cookie_delete": {"name*"},
    "browser_cookie_clear": set(),
    **{
        f"browser_{kind}storage_{verb}": shape
        for kind in ("local", "session")
        for verb, shape in {
            "list": set(),
            "get": {"key*"},
            "set": {"key*", "value*"},
            "delete": {"key*"},
            "clear": set(),
        }.items()
    },
    "browser_network_state_set": {"state*"},
}
CORE = {"browser_navigate_back", "browser_press_key", "browser_drop"}
PEER_CAPS = {
    "vision": {"browser_mouse_down", "browser_mouse_up", "browser_mouse_wheel"},
    "testing": {t for t in PEER_SHAPES if "verify" in t or "locator" in t},
    "storage": {t for t in PEER_SHAPES if "cookie" in t or "storage_" in t},
    "network": {"browser_network_state_set"},
}
ALL_CAPS = tuple(sorted(CAPS))

DROPZONE = (
    "<title>Drop</title><div id=dropzone aria-label=dropzone"
    " style='width:300px;height:200px;border:2px dashed #888'></div>"
    "<div id=closed aria-label=closed style='width:100px;height:50px'>no drops</div>"
    "<script>window.__dropInfo = null; const zone = document.getElementById('dropzone');"
    "zone.addEventListener('dragenter', e => e.preventDefault());"
    "zone.addEventListener('dragover', e => e.preventDefault());"
    "zone.addEventListener('drop', async e => { e.preventDefault(); const files = [];"
    " for (const f of e.dataTransfer.files) files.push({name: f.name, size: f.size, text: await f.text()});"
    " const data = {}; for (const t of e.dataTransfer.types) if (t !== 'Files') data[t] = e.dataTransfer.getData(t);"
    " window.__dropInfo = {files, data}; });</script>"
)
EVENTS = (
    "<title>Events</title><body style='margin:0;height:3000px'><div id=log></div><script>"
    "const log = (...a) => { const d = document.createElement('div'); d.textContent = a.join(' ');"
    " document.getElementById('log').appendChild(d); };"
    "document.addEventListener('mousedown', e => log('mousedown', 'button:' + e.button));"
    "document.addEventListener('mouseup', e => log('mouseup', 'button:' + e.button));"
    "document.addEventListener('contextmenu', e => e.preventDefault());"
    "document.addEventListener('wheel', e => log('wheel', e.deltaX, e.deltaY));"
    "</script></body>"
)
PAGES = {
    "/": "<title>Home</title><h1>Home</h1>",
    "/one": "<title>One</title><h1>One</h1><a href=/two>two</a>",
    "/two": "<title>Two</title><h1>Two</h1>",
    "/keys": "<title>Keys</title><input id=box aria-label=Box><p id=keys></p><script>"
    "document.getElementById('box').addEventListener('keydown', e => {"
    " document.getElementById('keys').textContent += e.key + ';' });</script>",
    "/drop": DROPZONE,
    "/events": EVENTS,
    "/verify": "<title>Verify</title><button>Submit</button><h1>Welcome</h1>"
    "<div role=alert aria-label='Success message'></div><button hidden>Cancel</button>"
    '<p>She said "Hello world"</p><div>It\'s a beautiful day</div>'
    "<p style='display:none'>Hidden words</p>"
    "<ul aria-label=Fruits><li>Apple</li><li>Banana</li><li>Cherry</li></ul>"
    "<input aria-label=Name value='John Doe'><input type=checkbox aria-label=Agree checked>"
    "<input type=radio name=r aria-label=Off><select aria-label=Size><option value=s>Small</option>"
    "<option value=l selected>Large</option></select>"
    "<button data-testid=save onclick=\"document.title = 'saved'\">Save</button>"
    "<iframe srcdoc='<h1>Inner iframe</h1>'></iframe>",
}


class PeerPages:
    """The test pages on 127.0.0.1, and the Cookie headers requests brought."""

    def __init__(self) -> None:
        self.server: LocalServer | None = None
        self.cookies: list[str] = []

    def url(self, path: str) -> str:
        assert self.server is not None
        return self.server.origin + path


@pytest.fixture(scope="module")
def pages() -> Iterator[PeerPages]:
    state = PeerPages()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            if path.startswith("/cookies"):
                state.cookies.append(self.headers.get("cookie", ""))
                body = json.dumps({"cookie": self.headers.get("cookie", "")}).encode()
                kind = "application/json"
            elif path in PAGES:
                body, kind = PAGES[path].encode(), "text/html; charset=utf-8"
            else:
                self.send_response(404)
                self.send_header("content-length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    state.server = serve(Handler)
    yield state
    state.server.stop()


class Calls:
    """An MCP SDK client's calls, read as the host's structured results."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def raw(self, tool: str, args: dict[str, Any] | None = None) -> types.CallToolResult:
        return await self.client.call_tool(tool, args or {})

    async def ok(self, tool: str, args: dict[str, Any] | None = None) -> Any:
        result = await self.raw(tool, args)
        assert not result.is_error, f"{tool}: {text_of(result)}"
        assert result.structured_content is not None
        return result.structured_content["result"]

    async def error(self, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """The error of a call that must fail: `{code, path, message}` (and its text)."""
        result = await self.raw(tool, args)
        assert result.is_error, f"{tool} should have failed: {text_of(result)}"
        assert result.structured_content is not None
        error = dict(result.structured_content["error"])
        assert text_of(result).startswith(f"Error [{error['code']}] {tool}")
        return error

    async def page(self, expression: str) -> Any:
        return await self.ok("browser_evaluate", {"expression": expression})

    async def until(self, expression: str, what: str, deadline: float = 30.0) -> Any:
        """The page's value of `expression` once truthy (polled up to a generous deadline)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + deadline
        while True:
            found = await self.page(expression)
            if found:
                return found
            assert loop.time() < end, f"never: {what}"
            await asyncio.sleep(0.1)


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))


def run_client(
    steps: Callable[[Calls], Awaitable[Any]], caps: tuple[str, ...] = ALL_CAPS, **settings: Any
) -> Any:
    """`steps` through an in-memory MCP SDK client of a host listing its default toolset."""

    async def scenario() -> Any:
        async with Host(host_config(caps=caps, **settings)) as host:
            server = build_server(host, host.registry.select(["default"]))
            async with Client(server, mode="legacy") as client:
                return await steps(Calls(client))

    return asyncio.run(scenario())


def ref(snapshot: str, role: str, name: str) -> str:
    found = re.search(rf'{role} "{re.escape(name)}"[^\n]*\[ref=((?:f\d+)?e\d+)\]', snapshot)
    assert found, snapshot
    return found.group(1)


# -- listing and gating ------------------------------------------------------------------------


def test_each_tool_has_the_peers_name_shape_and_capability() -> None:
    async def listed(client_caps: tuple[str, ...]) -> tuple[dict[str, Any], list[Any]]:
        async with Host(host_config(caps=client_caps)) as host:
            server = build_server(host, host.registry.select(["default"]))
            async with Client(server, mode="legacy") as client:
                tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}
                calls = Calls(client)
                refused = [
                    await calls.error(name, {})
                    for name in ("browser_cookie_list", "browser_verify_text_visible")
                    if not client_caps
                ]
                return tools, refused

    plain, refused = asyncio.run(listed(()))
    every, _ = asyncio.run(listed(ALL_CAPS))
    assert set(plain) >= CORE and not (set(PEER_SHAPES) - CORE) & set(plain)
    assert [e["code"] for e in refused] == ["tool_disabled", "tool_disabled"]
    assert "--caps storage" in refused[0]["message"]
    assert "--caps testing" in refused[1]["message"]
    for cap, tools in PEER_CAPS.items():
        assert tools <= set(CAPS[cap]), cap
    for name, shape in PEER_SHAPES.items():
        schema = every[name]
        required = set(schema.get("required", []))
        names = {p + ("*" if p in required else "") for p in schema.get("properties", {})}
        assert names == shape, name
    storage_only, _ = asyncio.run(listed(("storage",)))
    assert set(PEER_SHAPES) & set(storage_only) == CORE | PEER_CAPS["storage"]


# -- core: navigate back, press a key, drop ----------------------------------------------------


def test_navigate_back_and_press_key(pages: PeerPages) -> None:
    async def steps(calls: Calls) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await calls.ok("browser_navigate", {"url": pages.url("/one")})
        await calls.ok("browser_navigate", {"url": pages.url("/two")})
        seen["back"] = await calls.ok("browser_navigate_back")
        seen["heading"] = await calls.page("document.querySelector('h1').textContent")
        seen["first"] = await calls.ok("browser_navigate_back")  # to the tab's first page
        seen["nowhere"] = await calls.ok("browser_navigate_back")
        await calls.ok("browser_navigate", {"url": pages.url("/keys")})
        await calls.ok("browser_click", {"target": "#box"})
        for key in ("a", "Shift+B", "ArrowLeft", "Enter"):
            await calls.ok("browser_press_key", {"key": key})
        seen["keys"] = await calls.page("document.getElementById('keys').textContent")
        seen["value"] = await calls.page("document.getElementById('box').value")
        seen["unknown"] = await calls.error("browser_press_key", {"key": "NoSuchKey"})
        seen["empty"] = await calls.error("browser_press_key", {"key": ""})
        return seen

    seen = run_client(steps, caps=())
    assert seen["back"]["url"] == pages.url("/one") and seen["back"]["title"] == "One"
    assert seen["heading"] == "One"
    assert seen["first"]["url"] == "about:blank"
    assert seen["nowhere"]["url"] == "about:blank" and "no previous page" in seen["nowhere"]["note"]
    assert seen["keys"] == "a;Shift;B;ArrowLeft;Enter;"
    assert seen["value"] == "aB"
    assert seen["unknown"]["code"] == "unknown_key" and "NoSuchKey" in seen["unknown"]["message"]
    assert seen["empty"]["code"] == "invalid_argument" and seen["empty"]["path"] == "key"


def test_drop_files_and_data_obey_the_upload_rules(pages: PeerPages, tmp_path: Path) -> None:
    allowed = tmp_path / "uploads"
    allowed.mkdir()
    (allowed / "drop-me.txt").write_text("hello")
    (tmp_path / "outside.txt").write_text("secret")

    async def without_uploads(calls: Calls) -> dict[str, Any]:
        await calls.ok("browser_navigate", {"url": pages.url("/drop")})
        return {
            "off": await calls.error(
                "browser_drop", {"target": "#dropzone", "paths": [str(allowed / "drop-me.txt")]}
            ),
            "data": await calls.ok(
                "browser_drop", {"target": "#dropzone", "data": {"text/plain": "hello world"}}
            ),
            "info": await calls.page("window.__dropInfo"),
        }

    async def with_uploads(calls: Calls) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await calls.ok("browser_navigate", {"url": pages.url("/drop")})
        snapshot = text_of(await calls.raw("browser_snapshot"))
        seen["dropped"] = await calls.ok(
            "browser_drop",
            {
                "element": "dropzone",
                "target": ref(snapshot, "generic", "dropzone"),
                "paths": ["drop-me.txt"],
                "data": {"text/uri-list": "https://example.com/"},
            },
        )
        seen["info"] = await calls.page("window.__dropInfo")
        seen["outside"] = await calls.error(
            "browser_drop",
            {"target": "#dropzone", "paths": ["drop-me.txt", str(tmp_path / "outside.txt")]},
        )
        seen["neither"] = await calls.error("browser_drop", {"target": "#dropzone"})
        seen["empty"] = await calls.error("browser_drop", {"target": "#dropzone", "paths": []})
        seen["refused"] = await calls.error(
            "browser_drop", {"target": "#closed", "data": {"text/plain": "x"}}
        )
        return seen

    first = run_client(without_uploads, caps=())
    assert first["off"]["code"] == "upload_disabled" and first["off"]["path"] == "paths[0]"
    assert first["data"]["dropped"] == {"data": ["text/plain"]}
    assert first["info"] == {"files": [], "data": {"text/plain": "hello world"}}

    seen = run_client(with_uploads, caps=(), upload_dirs=(allowed,))
    assert seen["dropped"]["dropped"] == {"files": ["drop-me.txt"], "data": ["text/uri-list"]}
    assert seen["info"]["files"] == [{"name": "drop-me.txt", "size": 5, "text": "hello"}]
    assert seen["info"]["data"] == {"text/uri-list": "https://example.com/"}
    assert seen["outside"]["code"] == "upload_not_allowed" and seen["outside"]["path"] == "paths[1]"
    for case in ("neither", "empty"):
        assert (
            seen[case]["code"] == "missing_argument"
            and '"paths" or "data"' in seen[case]["message"]
        )
    assert seen["refused"]["code"] == "drop_refused"


# -- vision: mouse down, up, wheel -------------------------------------------------------------


def test_mouse_down_up_and_wheel(pages: PeerPages) -> None:
    async def steps(calls: Calls) -> dict[str, Any]:
        await calls.ok("browser_navigate", {"url": pages.url("/events")})
        await calls.ok("browser_mouse_move_xy", {"x": 100, "y": 100})
        await calls.ok("browser_mouse_down")
        await calls.ok("browser_mouse_up")
        await calls.ok("browser_mouse_down", {"button": "right"})
        await calls.ok("browser_mouse_up", {"button": "right"})
        await calls.ok("browser_mouse_wheel", {"deltaY": 400})
        scrolled = await calls.until("window.scrollY", "the page scrolled")
        log = await calls.until(
            "[...document.querySelectorAll('#log div')].map(d => d.textContent)"
            ".filter(t => t.startsWith('wheel')).length && "
            "[...document.querySelectorAll('#log div')].map(d => d.textContent)",
            "the wheel event",
        )
        bad = await calls.error("browser_mouse_down", {"button": "side"})
        return {"scrolled": scrolled, "log": log, "bad": bad}

    seen = run_client(steps, caps=("vision",))
    assert seen["log"] == [
        "mousedown button:0", "mouseup button:0", "mousedown button:2", "mouseup button:2",
        "wheel 0 400",
    ]  # fmt: skip
    assert seen["scrolled"] > 0
    assert seen["bad"]["code"] == "invalid_argument" and seen["bad"]["path"] == "button"


# -- testing: verify, generate a locator -------------------------------------------------------


def test_verify_tools_pass_on_what_the_page_shows_and_fail_readably(pages: PeerPages) -> None:
    async def steps(calls: Calls) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await calls.ok("browser_navigate", {"url": pages.url("/verify")})
        snapshot = text_of(await calls.raw("browser_snapshot"))
        for role, name in [
            ("button", "Submit"), ("heading", "Welcome"), ("alert", "Success message"),
            ("heading", "Inner iframe"),
        ]:  # fmt: skip
            await calls.ok("browser_verify_element_visible", {"role": role, "accessibleName": name})
        seen["no_element"] = await calls.error(
            "browser_verify_element_visible", {"role": "button", "accessibleName": "Cancel"}
        )
        for text in ('She said "Hello world"', "It's a beautiful day", "Inner iframe"):
            await calls.ok("browser_verify_text_visible", {"text": text})
        seen["no_text"] = await calls.error("browser_verify_text_visible", {"text": "Goodbye"})
        seen["hidden_text"] = await calls.error(
            "browser_verify_text_visible", {"text": "Hidden words"}
        )
        fruits = ref(snapshot, "list", "Fruits")
        await calls.ok(
            "browser_verify_list_visible",
            {"element": "Fruit list", "target": fruits, "items": ["Apple", "Cherry"]},
        )
        seen["no_item"] = await calls.error(
            "browser_verify_list_visible",
            {"element": "Fruit list", "target": fruits, "items": ["Apple", "Durian"]},
        )
        name = ref(snapshot, "textbox", "Name")
        field = {"element": "Name", "target": name}
        await calls.ok("browser_verify_value", {"type": "textbox", **field, "value": "John Doe"})
        seen["wrong_value"] = await calls.error(
            "browser_verify_value", {"type": "textbox", **field, "value": "Jane Smith"}
        )
        agree = {"element": "Agree", "target": ref(snapshot, "checkbox", "Agree")}
        await calls.ok("browser_verify_value", {"type": "checkbox", **agree, "value": "true"})
        seen["unchecked"] = await calls.error(
            "browser_verify_value", {"type": "checkbox", **agree, "value": "false"}
        )
        seen["not_boolean"] = await calls.error(
            "browser_verify_value", {"type": "checkbox", **agree, "value": "yes"}
        )
        off = {"element": "Off", "target": ref(snapshot, "radio", "Off")}
        await calls.ok("browser_verify_value", {"type": "radio", **off, "value": "false"})
        size = {"element": "Size", "target": "label=Size"}
        await calls.ok("browser_verify_value", {"type": "combobox", **size, "value": "l"})
        seen["locator"] = await calls.ok(
            "browser_generate_locator",
            {"element": "Save", "target": ref(snapshot, "button", "Save")},
        )
        seen["heading_locator"] = await calls.ok("browser_generate_locator", {"target": "h1"})
        seen["ambiguous"] = await calls.error("browser_generate_locator", {"target": "button"})
        await calls.ok("browser_click", {"target": seen["locator"]["target"]})
        seen["title"] = await calls.page("document.title")
        return seen

    seen = run_client(steps, caps=("testing",))
    for case in ("no_element", "no_text", "hidden_text", "no_item", "wrong_value", "unchecked"):
        assert seen[case]["code"] == "verification_failed", case
    assert 'role "button" and accessible name "Cancel"' in seen["no_element"]["message"]
    assert seen["no_item"]["path"] == "items[1]" and "Durian" in seen["no_item"]["message"]
    assert "'Jane Smith'" in seen["wrong_value"]["message"]
    assert "'John Doe'" in seen["wrong_value"]["message"]
    assert seen["not_boolean"]["code"] == "invalid_argument"
    assert seen["locator"] == {
        "locator": 'page.getByTestId("save")',
        "python": 'page.get_by_test_id("save")',
        "target": "testid=save",
    }
    assert seen["heading_locator"]["python"] == 'page.get_by_role("heading", name="Welcome")'
    assert seen["ambiguous"]["code"] == "ambiguous_target"
    assert seen["title"] == "saved"  # the generated target reaches the element


# -- storage: cookies, localStorage, sessionStorage --------------------------------------------


def test_cookies(pages: PeerPages) -> None:
    async def steps(calls: Calls) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        seen["blank"] = await calls.error("browser_cookie_set", {"name": "a", "value": "b"})
        await calls.ok("browser_navigate", {"url": pages.url("/")})
        seen["empty"] = await calls.ok("browser_cookie_list")
        await calls.ok("browser_cookie_set", {"name": "cookie1", "value": "value1"})
        await calls.ok("browser_cookie_set", {"name": "cookie2", "value": "value2"})
        seen["get"] = await calls.ok("browser_cookie_get", {"name": "cookie1"})
        seen["list"] = await calls.ok("browser_cookie_list", {"domain": "127.0.0.1"})
        seen["other_domain"] = await calls.ok("browser_cookie_list", {"domain": "nonexistent.com"})
        seen["page_sees"] = await calls.page("document.cookie")
        seen["server_sees"] = await calls.page(
            "fetch('/cookies').then(r => r.json()).then(j => j.cookie)"
        )
        expires = int(time.time()) + 3600
        await calls.ok(
            "browser_cookie_set",
            {
                "name": "full", "value": "fullValue", "path": "/cookies/deep", "expires": expires,
                "httpOnly": True, "secure": False, "sameSite": "Lax",
            },
        )  # fmt: skip
        seen["full"] = await calls.ok("browser_cookie_get", {"name": "full"})
        seen["expires"] = expires
        seen["deep"] = await calls.page(
            "fetch('/cookies/deep/x').then(r => r.json()).then(j => j.cookie)"
        )
        seen["page_after"] = await calls.page("document.cookie")
        seen["deleted"] = await calls.ok("browser_cookie_delete", {"name": "cookie1"})
        seen["gone"] = await calls.ok("browser_cookie_get", {"name": "cookie1"})
        seen["delete_missing"] = await calls.ok("browser_cookie_delete", {"name": "nonexistent"})
        seen["cleared"] = await calls.ok("browser_cookie_clear")
        seen["after_clear"] = await calls.ok("browser_cookie_list")
        seen["bad_same_site"] = await calls.error(
            "browser_cookie_set", {"name": "a", "value": "b", "sameSite": "lax"}
        )
        return seen

    seen = run_client(steps, caps=("storage",))
    assert seen["blank"]["code"] == "invalid_argument" and seen["blank"]["path"] == "domain"
    assert seen["empty"] == {"cookies": []}
    cookie = seen["get"]["cookie"]
    assert (cookie["name"], cookie["value"], cookie["domain"], cookie["path"]) == (
        "cookie1", "value1", "127.0.0.1", "/",
    )  # fmt: skip
    assert {c["name"] for c in seen["list"]["cookies"]} == {"cookie1", "cookie2"}
    assert seen["other_domain"] == {"cookies": []}
    assert seen["page_sees"] == "cookie1=value1; cookie2=value2"
    assert seen["server_sees"] == "cookie1=value1; cookie2=value2"
    full = seen["full"]["cookie"]
    assert full["httpOnly"] is True and full["sameSite"] == "Lax"
    assert full["path"] == "/cookies/deep" and full["expires"] == seen["expires"]
    assert "full=fullValue" in seen["deep"]  # sent under its path
    assert "full" not in seen["page_after"]  # httpOnly: the page's script never sees it
    assert seen["deleted"] == {"deleted": 1} and seen["gone"] == {"cookie": None}
    assert seen["delete_missing"] == {"deleted": 0}
    assert seen["cleared"] == {"cleared": 2} and seen["after_clear"] == {"cookies": []}
    assert seen["bad_same_site"]["code"] == "invalid_argument"


@pytest.mark.parametrize("kind", ["local", "session"])
def test_web_storage(pages: PeerPages, kind: str) -> None:
    tool = f"browser_{kind}storage"
    other = "sessionStorage" if kind == "local" else "localStorage"
    storage = f"{kind}Storage"

    async def steps(calls: Calls) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await calls.ok("browser_navigate", {"url": "data:text/html,<p>opaque"})
        seen["opaque"] = await calls.error(f"{tool}_list")
        await calls.ok("browser_navigate", {"url": pages.url("/")})
        seen["empty"] = await calls.ok(f"{tool}_list")
        await calls.ok(f"{tool}_set", {"key": "theme", "value": "dark"})
        await calls.ok(f"{tool}_set", {"key": "lang", "value": "x" * 600})
        seen["page_sees"] = await calls.page(f"{storage}.getItem('theme')")
        seen["other_sees"] = await calls.page(f"{other}.getItem('theme')")
        await calls.page(f"{storage}.setItem('fromPage', '1')")
        seen["list"] = await calls.ok(f"{tool}_list")
        seen["get"] = await calls.ok(f"{tool}_get", {"key": "lang"})
        seen["missing"] = await calls.ok(f"{tool}_get", {"key": "nope"})
        await calls.ok(f"{tool}_delete", {"key": "theme"})
        seen["after_delete"] = await calls.page(f"{storage}.getItem('theme')")
        await calls.ok(f"{tool}_clear")
        seen["after_clear"] = await calls.page(f"{storage}.length")
        return seen

    seen = run_client(steps, caps=("storage",))
    assert seen["opaque"]["code"] == "no_web_storage"
    assert seen["empty"] == {"items": []}
    assert seen["page_sees"] == "dark" and seen["other_sees"] is None
    items = {i["name"]: i for i in seen["list"]["items"]}
    assert set(items) == {"theme", "lang", "fromPage"}
    assert items["lang"]["cut"] is True and len(items["lang"]["value"]) == 500
    assert seen["get"] == {"key": "lang", "value": "x" * 600}
    assert seen["missing"] == {"key": "nope", "value": None}
    assert seen["after_delete"] is None and seen["after_clear"] == 0


# -- network: offline and back -----------------------------------------------------------------


def test_network_state_set_takes_the_session_offline_and_back(pages: PeerPages) -> None:
    async def steps(calls: Calls) -> dict[str, Any]:
        await calls.ok("browser_navigate", {"url": pages.url("/one")})
        seen = {"offline": await calls.ok("browser_network_state_set", {"state": "offline"})}
        seen["navigate"] = await calls.error("browser_navigate", {"url": pages.url("/two")})
        seen["new_tab"] = await calls.page("fetch('/two').then(() => 'fetched', e => e.name)")
        seen["online"] = await calls.ok("browser_network_state_set", {"state": "online"})
        seen["back"] = await calls.ok("browser_navigate", {"url": pages.url("/two")})
        return seen

    seen = run_client(steps, caps=("network",))
    assert seen["offline"] == {"network": "offline"}
    assert "ERR_INTERNET_DISCONNECTED" in seen["navigate"]["message"]
    assert seen["new_tab"] == "TypeError"  # the page's own requests fail too
    assert seen["online"] == {"network": "online"}
    assert seen["back"]["title"] == "Two"


# -- trails: recorded, replayed, exported ------------------------------------------------------


def test_the_acting_tools_are_recorded_replayed_and_exported(
    pages: PeerPages, tmp_path: Path
) -> None:
    trail = tmp_path / "peer.trail.yaml"
    args = ["-m", "host", "serve", "--stdio", "--record", str(trail)]
    args += ["--executable-path", HEADLESS_CHROMIUM]
    params = StdioServerParameters(
        command=PYTHON, args=[*args, "--caps", ",".join(ALL_CAPS)], cwd=str(REPO)
    )

    async def record() -> None:
        async with Client(params) as client:
            calls = Calls(client)
            await calls.ok("browser_navigate", {"url": pages.url("/one")})
            await calls.ok("browser_navigate", {"url": pages.url("/verify")})
            await calls.ok("browser_navigate_back")
            await calls.ok("browser_navigate", {"url": pages.url("/verify")})
            snapshot = text_of(await calls.raw("browser_snapshot"))
            name = {"element": "Name", "target": ref(snapshot, "textbox", "Name")}
            await calls.ok("browser_verify_value", {"type": "textbox", **name, "value": "John Doe"})
            await calls.ok("browser_verify_text_visible", {"text": "It's a beautiful day"})
            await calls.ok(
                "browser_verify_element_visible", {"role": "button", "accessibleName": "Submit"}
            )
            fruits = {"element": "Fruits", "target": ref(snapshot, "list", "Fruits")}
            await calls.ok("browser_verify_list_visible", {**fruits, "items": ["Banana"]})
            await calls.ok("browser_generate_locator", {"target": "h1"})  # a read: not recorded
            await calls.ok("browser_cookie_set", {"name": "seen", "value": "1"})
            await calls.ok("browser_cookie_list")  # a read
            await calls.ok("browser_localstorage_set", {"key": "k", "value": "v"})
            await calls.ok("browser_sessionstorage_set", {"key": "s", "value": "w"})
            await calls.ok("browser_network_state_set", {"state": "online"})
            await calls.ok("browser_navigate", {"url": pages.url("/drop")})
            await calls.ok("browser_drop", {"target": "#dropzone", "data": {"text/plain": "hi"}})
            await calls.ok("browser_navigate", {"url": pages.url("/keys")})
            await calls.ok("browser_click", {"target": "#box"})
            await calls.ok("browser_press_key", {"key": "a"})
            await calls.ok("browser_mouse_move_xy", {"x": 5, "y": 5})
            await calls.ok("browser_mouse_down")
            await calls.ok("browser_mouse_up")
            await calls.ok("browser_mouse_wheel", {"deltaY": 10})
            await calls.ok("browser_localstorage_delete", {"key": "k"})
            await calls.ok("browser_cookie_delete", {"name": "seen"})
            await calls.ok("browser_cookie_clear")

    asyncio.run(record())
    steps = read_trail(trail).steps
    assert [s.tool for s in steps] == [
        "browser_navigate", "browser_navigate", "browser_navigate_back", "browser_navigate",
        "browser_verify_value", "browser_verify_text_visible", "browser_verify_element_visible",
        "browser_verify_list_visible", "browser_cookie_set", "browser_localstorage_set",
        "browser_sessionstorage_set", "browser_network_state_set", "browser_navigate",
        "browser_drop", "browser_navigate", "browser_click", "browser_press_key",
        "browser_mouse_move_xy", "browser_mouse_down", "browser_mouse_up", "browser_mouse_wheel",
        "browser_localstorage_delete", "browser_cookie_delete", "browser_cookie_clear",
    ]  # fmt: skip
    assert not re.search(r"\b(?:f\d+)?e\d+\b", trail.read_text())  # refs became locators
    assert steps[4].arguments["target"] == 'internal:role=textbox[name="Name"i]'
    assert steps[8].arguments == {"name": "seen", "value": "1"}

    done = subprocess.run(
        [PYTHON, "-m", "host", "replay", str(trail), "--executable-path", HEADLESS_CHROMIUM],
        cwd=tmp_path, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr  # the capabilities come on by themselves
    assert "replayed 24 steps" in done.stdout

    exported = subprocess.run(
        [PYTHON, "-m", "host", "export", str(trail), "--to", "python"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert "from playwright.sync_api import expect, sync_playwright" in exported
    for line in (
        'expect(page.get_by_role("textbox", name="Name")).to_have_value("John Doe")',
        "page.go_back()",
        'page.keyboard.press("a")',
        'page.locator("#dropzone").drop({"data": {"text/plain": "hi"}})',
        "page.mouse.down()",
        "page.mouse.wheel(0, 10)",
        'page.local_storage.set_item("k", "v")',
        "page.context.set_offline(False)",
        'page.context.clear_cookies(name="seen")',
    ):
        assert line in exported, line
    module = tmp_path / "test_exported_peer.py"
    module.write_text(exported)
    ran = subprocess.run(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(module)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PLAYWRIGHT_CHROMIUM_EXECUTABLE": HEADLESS_CHROMIUM},
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "1 passed" in ran.stdout

    typescript = subprocess.run(
        [PYTHON, "-m", "host", "export", str(trail), "--to", "typescript"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert 'import { expect, test } from "@playwright/test";' in typescript
    assert "await page.goBack();" in typescript and "await page.mouse.wheel(0, 10);" in typescript
    folder = REPO / "tests/host_tests/ts/.exported-peer"
    folder.mkdir(exist_ok=True)
    try:
        (folder / "peer.spec.ts").write_text(typescript)
        checked = subprocess.run(
            [
                str(REPO / "node_modules/.bin/tsc"), "--strict", "--noEmit", "--target", "es2022",
                "--module", "commonjs", "--moduleResolution", "node", "--types", "node",
                "--skipLibCheck", str(folder / "peer.spec.ts"),
            ],
            cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert checked.returncode == 0, checked.stdout + checked.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)

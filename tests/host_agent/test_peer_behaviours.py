"""Issue 36, "Behaviours to fix" and "Compatibility of what callers type": the host as a drop-in
for @playwright/mcp 0.0.83, checked through MCP (the official SDK's client over streamable HTTP)
in Chromium, by what a model reads and what the page does."""

from __future__ import annotations

import asyncio
import http.server
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
from host_tests.host_helpers import ServedHost, serve_host
from local_server import serve

from host_agent.agent_client import Agent, called, find_ref, with_agent

pytestmark = pytest.mark.browser

T = TypeVar("T")

# Each page starts what it starts 100 ms after the click: later than the click's own return, so
# a result made at once misses it; the host under test waits 1.5 s (--timeout-settle), well past
# it on a loaded machine, and the default of 500 ms is what the peer waits.
LATER = "setTimeout(() => {{ {} }}, 100)"
PAGES = {
    "/start": "<title>Start</title>"
    f'<button id=nav onclick="{LATER.format("location.href = `/landed`")}">Go</button>'
    f'<button id=ask onclick="{LATER.format("document.title = confirm(`Sure?`)")}">Ask</button>'
    f'<button id=load onclick="{LATER.format("fetch(`/api/slow`).then(r => r.text()).then(t => document.getElementById(`out`).textContent = t)")}">Load</button>'
    f'<button id=tab onclick="{LATER.format("window.open(`/landed`)")}">Tab</button>'
    f'<button id=get onclick="{LATER.format("location.href = `/file.csv`")}">Get</button>'
    f'<button id=log onclick="{LATER.format("console.log(`saved draft`); console.warn(`slow disk`)")}">Log</button>'
    "<form action=/landed><input id=q name=q aria-label=Query></form><p id=out>none</p>",
    "/landed": "<title>Landed</title><h1>Landed</h1>",
    "/files": '<title>Files</title><input type=file id=many multiple onchange="document'
    ".getElementById('out').textContent = [...this.files].map(f => f.name + ':' + f.size)"
    ".join(',')\"><p id=out>none</p>",
    "/shop": "<title>Shop</title><main><nav aria-label=Sections><ul><li><a href=/a>Shoes</a></li>"
    "<li><a href=/b>Hats</a></li><li><a href=/c>Error codes</a></li></ul></nav>"
    "<section aria-label=Basket><h2>Basket</h2><ul><li>Item 1 costs 10 EUR</li>"
    "<li>Item 22 costs 200 EUR</li><li>an error happened</li></ul></section></main>",
}
CSV = b"name,size\nalpha,1\nbeta,2\n"


@dataclass
class Site:
    base: str

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            if path in PAGES:
                self._send(200, "text/html; charset=utf-8", PAGES[path].encode())
            elif path == "/api/slow":
                # Answers after the settle time: the result still waits for it (5 s at most).
                import time

                time.sleep(0.8)
                self._send(200, "text/plain", b"slow answer")
            elif path == "/file.csv":
                self._send(
                    200, "text/csv", CSV, {"content-disposition": 'attachment; filename="data.csv"'}
                )
            else:
                self._send(404, "text/plain", b"not found")

        def _send(
            self, status: int, kind: str, body: bytes, headers: dict[str, str] | None = None
        ) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = serve(Handler)
    yield Site(httpd.origin)
    httpd.stop()


@pytest.fixture(scope="module")
def peer_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    output = tmp_path_factory.mktemp("output")
    host = serve_host("--timeout-settle", "1500", "--output-dir", str(output))
    yield host
    host.stop()


# -- 1. an action reports what it set off ----------------------------------------------------


def test_a_click_reports_the_navigation_it_started_later(peer_host: ServedHost, site: Site) -> None:
    async def body(agent: Agent) -> tuple[dict[str, Any], str]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        return await called(agent, "browser_click", {"target": "#nav"})

    structured, text = with_agent(peer_host, body)
    assert structured["result"]["url"] == site.url("/landed"), text
    assert structured["result"]["title"] == "Landed"
    assert "/landed" in text and "Landed" in text


def test_a_click_reports_the_dialog_it_opened_later(peer_host: ServedHost, site: Site) -> None:
    async def body(agent: Agent) -> tuple[dict[str, Any], str, Any]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        structured, text = await called(agent, "browser_click", {"target": "#ask"})
        await agent.ok("browser_handle_dialog", {"accept": True})
        title = await agent.ok("browser_evaluate", {"expression": "() => document.title"})
        return structured, text, title

    structured, text, title = with_agent(peer_host, body)
    assert structured["result"]["dialog"]["message"] == "Sure?", text
    assert "dialog open" in text and "Sure?" in text
    assert title == "true"  # the page really was waiting on that dialog


def test_a_click_reports_the_requests_it_started_and_waits_for_them(
    peer_host: ServedHost, site: Site
) -> None:
    async def body(agent: Agent) -> tuple[dict[str, Any], str, Any]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        structured, text = await called(agent, "browser_click", {"target": "#load"})
        out = await agent.ok("browser_get_text", {"target": "#out"})
        return structured, text, out

    structured, text, out = with_agent(peer_host, body)
    assert structured["result"]["requests"] == [f"GET {site.url('/api/slow')} 200"], text
    assert "requests: GET" in text
    assert "slow answer" in json.dumps(out)


def test_a_click_reports_the_tab_it_opened_later_where_it_went(
    peer_host: ServedHost, site: Site
) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        structured, _ = await called(agent, "browser_click", {"target": "#tab"})
        return structured

    structured = with_agent(peer_host, body)
    opened = [n for n in structured.get("notes", []) if n.get("event") == "tab_opened"]
    assert opened and opened[0]["url"] == site.url("/landed"), structured
    assert structured["result"]["tabs"] == 2


def test_a_click_reports_the_download_it_started_later(peer_host: ServedHost, site: Site) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        structured, _ = await called(agent, "browser_click", {"target": "#get"})
        return structured

    structured = with_agent(peer_host, body)
    downloads = [n for n in structured.get("notes", []) if n.get("event") == "download"]
    assert downloads, structured
    assert downloads[0]["name"] == "data.csv" and downloads[0]["size"] == len(CSV)
    with open(downloads[0]["path"], "rb") as saved:
        assert saved.read() == CSV


def test_a_key_press_reports_the_navigation_it_submitted(peer_host: ServedHost, site: Site) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        await agent.ok("browser_type", {"target": "#q", "text": "shoes"})
        structured, _ = await called(agent, "browser_send_keys", {"keys": "Enter"})
        return structured

    structured = with_agent(peer_host, body)
    assert structured["result"]["url"] == site.url("/landed?q=shoes")
    assert structured["result"]["title"] == "Landed"


def test_console_messages_at_the_level_appear_in_the_action_result(
    peer_host: ServedHost, site: Site
) -> None:
    async def body(agent: Agent) -> tuple[dict[str, Any], str]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        return await called(agent, "browser_click", {"target": "#log"})

    structured, text = with_agent(peer_host, body)
    assert structured["result"]["console"] == [
        {"level": "info", "text": "saved draft"},
        {"level": "warning", "text": "slow disk"},
    ], text
    assert "saved draft" in text and "slow disk" in text


def test_the_console_level_leaves_out_less_severe_messages(site: Site) -> None:
    host = serve_host("--timeout-settle", "1500", "--console-level", "warning")
    try:

        async def body(agent: Agent) -> dict[str, Any]:
            await agent.ok("browser_navigate", {"url": site.url("/start")})
            structured, _ = await called(agent, "browser_click", {"target": "#log"})
            return structured

        structured = with_agent(host, body)
    finally:
        host.stop()
    assert structured["result"]["console"] == [{"level": "warning", "text": "slow disk"}]


def test_navigating_to_an_empty_url_is_a_no_op(peer_host: ServedHost, site: Site) -> None:
    # As @playwright/mcp 0.0.83's (issue 45): the page stays where it is, and the call succeeds
    # (this host refused it with invalid_argument before).
    async def body(agent: Agent) -> tuple[dict[str, Any], str]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        return await called(agent, "browser_navigate", {"url": ""})

    structured, text = with_agent(peer_host, body)
    assert structured["result"]["url"] == site.url("/start"), text
    assert structured["result"]["title"] == "Start"


# -- 2. navigating to an attachment ----------------------------------------------------------


def test_navigating_to_an_attachment_reports_the_download(
    peer_host: ServedHost, site: Site
) -> None:
    async def body(agent: Agent) -> tuple[dict[str, Any], str]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        return await called(agent, "browser_navigate", {"url": site.url("/file.csv")})

    structured, text = with_agent(peer_host, body)
    download = structured["result"]["download"]
    assert download["event"] == "download" and download["name"] == "data.csv", text
    assert download["size"] == len(CSV)
    with open(download["path"], "rb") as saved:
        assert saved.read() == CSV
    assert structured["result"]["url"] == site.url("/start")  # the page stayed where it was
    assert "Download is starting" not in text
    assert not [n for n in structured.get("notes", []) if n.get("event") == "download"]


# -- 3. routes: what each answers, and removing them all ------------------------------------

FETCH = "async () => {{ const r = await fetch({!r}); return r.status + ' ' + (await r.text()) }}"


def test_route_list_shows_what_each_route_answers_and_unroute_removes_all(
    peer_host: ServedHost, site: Site
) -> None:
    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        await agent.ok(
            "browser_route",
            {
                "url": "**/api/mock",
                "fulfill": {
                    "status": 201,
                    "contentType": "text/x-mock",
                    "headers": {"x-mocked": "yes"},
                    "body": "mocked ✓",
                },
            },
        )
        await agent.ok("browser_route", {"url": "**/api/json", "fulfill": {"json": {"a": [1]}}})
        await agent.ok("browser_route", {"url": "**/api/gone", "abort": {"errorCode": "failed"}})
        await agent.ok(
            "browser_route", {"url": "**/api/slow", "continue": {"headers": {"x-added": "1"}}}
        )
        mocked = await agent.ok("browser_evaluate", {"expression": FETCH.format("/api/mock")})
        listed = await agent.ok("browser_route_list")
        removed = await agent.ok("browser_unroute", {})
        after = await agent.ok("browser_route_list")
        real = await agent.ok("browser_evaluate", {"expression": FETCH.format("/api/mock")})
        return mocked, listed, removed, after, real

    mocked, listed, removed, after, real = with_agent(peer_host, body)
    assert mocked == "201 mocked ✓"
    routes = {r["url"]: r for r in listed["routes"]}
    mock = routes["**/api/mock"]
    assert (mock["status"], mock["contentType"], mock["headers"]) == (
        201,
        "text/x-mock",
        {"x-mocked": "yes"},
    )
    assert mock["bodyBytes"] == len("mocked ✓".encode()) and mock["hits"] == 1
    assert routes["**/api/json"]["contentType"] == "application/json"
    assert routes["**/api/json"]["bodyBytes"] == len('{"a": [1]}')
    assert routes["**/api/gone"]["errorCode"] == "failed"
    assert routes["**/api/slow"]["headers"] == {"x-added": "1"}
    assert removed == {"removed": 4, "routes": 0}
    assert after == {"routes": []}
    assert real == "404 not found"  # the page reaches the server again


def test_unroute_takes_the_peers_pattern(peer_host: ServedHost, site: Site) -> None:
    async def body(agent: Agent) -> tuple[Any, str]:
        await agent.ok("browser_navigate", {"url": site.url("/start")})
        await agent.ok("browser_route", {"url": "**/a", "abort": {}})
        await agent.ok("browser_route", {"url": "**/b", "abort": {}})
        removed = await agent.ok("browser_unroute", {"pattern": "**/a"})
        refused = await agent.fails(
            "browser_unroute", {"url": "**/a", "pattern": "**/b"}, "invalid_argument"
        )
        return removed, refused

    removed, refused = with_agent(peer_host, body)
    assert removed == {"removed": 1, "routes": 1}
    assert "url or pattern" in refused


# -- 4. browser_find: neighbours, the path from the root, regex ------------------------------


def test_find_gives_neighbours_the_path_from_the_root_and_a_regex_form(
    peer_host: ServedHost, site: Site
) -> None:
    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": site.url("/shop")})
        by_text = await called(agent, "browser_find", {"text": "hats"})
        by_regex = await agent.ok("browser_find", {"regex": r"Item \d{2} costs"})
        sensitive = await agent.ok("browser_find", {"regex": "error"})
        insensitive = await agent.ok("browser_find", {"regex": "/error/i"})
        line = by_text[0]["result"]["matches"][0]["line"]
        clicked = await agent.ok("browser_click", {"target": find_ref(line, "Hats")})
        bad = await agent.fails("browser_find", {"regex": "(unclosed"}, "invalid_argument")
        both = await agent.fails("browser_find", {"text": "a", "regex": "a"}, "invalid_argument")
        return by_text, by_regex, sensitive, insensitive, clicked, bad, both

    by_text, by_regex, sensitive, insensitive, clicked, bad, both = with_agent(peer_host, body)
    structured, text = by_text
    match = structured["result"]["matches"][0]
    assert 'link "Hats"' in match["line"]
    # The whole path, from the root: main, then the navigation, the list, its item.
    assert [p.split(" [")[0].split('"')[0].strip("- ").strip() for p in match["path"]] == [
        "main",
        "navigation",
        "list",
        "listitem",
    ], match["path"]
    assert any("Shoes" in line for line in match["before"]), match
    assert any("Error codes" in line for line in match["after"]), match
    assert "<- match" in text and "Shoes" in text and "navigation" in text
    assert [m["line"].split(": ", 1)[1] for m in by_regex["matches"]] == ["Item 22 costs 200 EUR"]
    assert [m["line"].split(": ", 1)[1] for m in sensitive["matches"]] == ["an error happened"]
    assert insensitive["count"] == 2  # "Error codes" too
    assert clicked["url"] == site.url("/b")  # a ref browser_find gave is a target
    assert "regular expression" in bad
    assert "one of the two" in both


def test_a_regex_that_backtracks_without_end_is_stopped_and_the_session_goes_on() -> None:
    from urllib.parse import quote

    from host_tests.host_helpers import host_config

    from host.calls.core import Host

    page = "data:text/html," + quote("<title>Slow</title><p>" + "a" * 40 + "!</p>")

    async def scenario() -> tuple[Any, Any]:
        async with Host(host_config(action_timeout=1.0)) as host:
            await host.call("k", "browser_navigate", {"url": page})
            slow = await host.call("k", "browser_find", {"regex": "(a+)+$"})
            after = await host.call("k", "browser_find", {"text": "aaa"})
            return slow, after

    slow, after = asyncio.run(scenario())
    assert not slow.ok and slow.error is not None and slow.error.code == "timeout", slow.text()
    assert "regular expression" in slow.error.message
    assert after.ok and after.value["count"] == 1, after.text()


# -- 5. screenshots: type, filename, fullPage with a target ----------------------------------


def test_screenshot_type_filename_and_a_contradiction(peer_host: ServedHost, site: Site) -> None:
    import base64
    from pathlib import Path

    import mcp_types as types

    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": site.url("/shop")})
        jpeg = await agent.call("browser_take_screenshot", {"type": "jpeg"})
        saved = await agent.ok("browser_take_screenshot", {"filename": "../../basket"})
        inferred = await agent.ok(
            "browser_take_screenshot", {"filename": "nav.jpg", "target": "role=navigation"}
        )
        refused = await agent.fails(
            "browser_take_screenshot", {"fullPage": True, "target": "h2"}, "invalid_argument"
        )
        return jpeg, saved, inferred, refused

    jpeg, saved, inferred, refused = with_agent(peer_host, body)
    images = [b for b in jpeg.content if isinstance(b, types.ImageContent)]
    assert images and images[0].mime_type == "image/jpeg"
    assert base64.b64decode(images[0].data)[:3] == b"\xff\xd8\xff"  # JPEG's magic
    path = Path(saved["path"])
    assert path.name == "basket.png" and path.parent.name == "screenshots"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and saved["size"] == path.stat().st_size
    assert Path(inferred["path"]).name == "nav.jpg" and inferred["type"] == "jpeg"
    assert Path(inferred["path"]).read_bytes()[:3] == b"\xff\xd8\xff"
    assert "contradict" in refused and "(at fullPage)" in refused


# -- 9. the peer's argument names ------------------------------------------------------------

DRAG = (
    "<title>Drag</title><div id=src draggable=true style='width:50px;height:50px'"
    " ondragstart=\"event.dataTransfer.setData('text', 'x')\">Source</div>"
    "<div id=dst style='width:80px;height:80px' ondragover='event.preventDefault()'"
    " ondrop=\"document.getElementById('out').textContent = 'dropped'\">Target</div>"
    '<input id=keys aria-label=Keys onkeydown="this.dataset.n = (+this.dataset.n || 0) + 1">'
    "<button ondblclick=\"document.getElementById('out').textContent = 'double'\">Twice</button>"
    "<p id=out>none</p>"
)


def test_the_peers_argument_names_are_accepted(peer_host: ServedHost, site: Site) -> None:
    from urllib.parse import quote

    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": "data:text/html," + quote(DRAG)})
        snapshot = (await agent.ok("browser_snapshot"))["snapshot"]
        twice = find_ref(snapshot, 'button "Twice"')
        await agent.ok(
            "browser_click", {"ref": twice, "element": "Twice button", "doubleClick": True}
        )
        doubled = await agent.ok("browser_get_text", {"target": "#out"})
        await agent.ok(
            "browser_drag",
            {
                "startElement": "the source",
                "startTarget": "#src",
                "endElement": "the drop zone",
                "endTarget": "#dst",
            },
        )
        dropped = await agent.ok(
            "browser_evaluate",
            {"function": "e => e.textContent", "ref": "#out", "element": "the output"},
        )
        await agent.ok(
            "browser_type", {"target": "#keys", "element": "keys", "text": "abc", "slowly": True}
        )
        keys = await agent.ok("browser_evaluate", {"expression": "() => keys.dataset.n"})
        missing = await agent.fails(
            "browser_click", {"target": "e999", "element": "the Buy button"}, "stale_ref"
        )
        both = await agent.fails(
            "browser_click", {"target": "#src", "ref": "#dst"}, "invalid_argument"
        )
        listed = {t.name: t for t in (await agent.client.list_tools()).tools}
        return doubled, dropped, keys, missing, both, listed

    doubled, dropped, keys, missing, both, listed = with_agent(peer_host, body)
    assert "double" in json.dumps(doubled)
    assert dropped == "dropped"
    assert int(keys) >= 3  # key presses: typed slowly (fill presses none)
    assert "the Buy button" in missing  # the caller's description, in the message
    assert "(at ref)" in both
    for tool in ("browser_click", "browser_drag", "browser_evaluate"):  # accepted, not listed
        properties = listed[tool].input_schema["properties"]
        assert not {"element", "ref", "startTarget", "function", "doubleClick"} & set(properties)


# -- 11. --toolset takes a comma list; web_setUserAgent is part of web_framework -------------


def test_toolset_takes_a_comma_list_and_web_framework_sets_the_user_agent(site: Site) -> None:
    host = serve_host("--toolset", "web_framework,web_browser")
    try:

        async def body(agent: Agent) -> tuple[set[str], Any]:
            listed = {t.name for t in (await agent.client.list_tools()).tools}
            await agent.ok("web_setUserAgent", {"userAgent": "peer-compatible/1.0"})
            await agent.ok("web_navigate", {"url": site.url("/start")})
            agent_string = await agent.ok("web_evaluate", {"script": "navigator.userAgent"})
            return listed, agent_string

        listed, agent_string = with_agent(host, body)
    finally:
        host.stop()
    assert {"webBrowser", "web_click", "web_setUserAgent"} <= listed
    assert "browser_click" not in listed  # exactly those two toolsets
    assert agent_string == "peer-compatible/1.0"


# -- 7. --secrets: an empty value is skipped with a warning ----------------------------------


def test_an_empty_secret_is_skipped_with_a_warning_and_the_others_are_masked(
    site: Site, tmp_path_factory: pytest.TempPathFactory
) -> None:
    secrets = tmp_path_factory.mktemp("secrets") / "peer.env"
    secrets.write_text("EMPTY=\nPASSWORD=hunter2-peer\nQUOTED=''\n")
    host = serve_host("--secrets", str(secrets))
    try:

        async def body(agent: Agent) -> tuple[Any, ...]:
            await agent.ok("browser_navigate", {"url": site.url("/start")})
            await agent.ok("browser_type", {"target": "#q", "text": "${PASSWORD}"})
            typed = await agent.ok(
                "browser_evaluate", {"expression": "() => [q.value === 'hunter2-peer', q.value]"}
            )
            unknown = await agent.fails(
                "browser_type", {"target": "#q", "text": "${EMPTY}"}, "unknown_secret"
            )
            return typed, unknown

        typed, unknown = with_agent(host, body)
        log = "".join(host.log)
    finally:
        host.stop()
    assert typed == [True, "${PASSWORD}"]  # the page has the value; the model sees the name
    assert "EMPTY has an empty value; it is skipped" in log and "QUOTED has an empty value" in log
    assert "PASSWORD" in unknown and "hunter2" not in unknown


# -- 6. origin patterns as the peer's: a wildcard port, a bare host ---------------------------

NO_CORS = (
    "async url => { try { await fetch(url, {mode: 'no-cors'}); return 'sent' }"
    " catch (e) { return 'blocked' } }"
)


def test_origin_patterns_take_a_wildcard_port_and_a_bare_host(site: Site) -> None:
    from host_agent.agent_pages import start_pages

    other, httpd = start_pages()
    other_port = other.base.rsplit(":", 1)[1]
    host = serve_host(
        "--browser-allowed-origins",
        "http://127.0.0.1:*",
        "--blocked-origins",
        f"127.0.0.1:{other_port}/ignored-path",
    )
    try:

        async def body(agent: Agent) -> list[Any]:
            await agent.ok("browser_navigate", {"url": site.url("/start")})
            seen = []
            for url in (
                site.url("/landed"),  # an allowed origin, another path
                f"http://localhost:{other_port}/api/data",  # another host: not allowed
                other.url("/api/data"),  # allowed by the wildcard port, blocked by the bare host
            ):
                seen.append(
                    await agent.ok("browser_evaluate", {"function": f"() => ({NO_CORS})({url!r})"})
                )
            return seen

        seen = with_agent(host, body)
    finally:
        host.stop()
        httpd.stop()
    assert seen == ["sent", "blocked", "blocked"]


def test_the_wildcard_port_lets_every_port_of_its_host_through(site: Site) -> None:
    from host_agent.agent_pages import start_pages

    other, httpd = start_pages()
    host = serve_host("--browser-allowed-origins", "http://127.0.0.1:*")
    try:

        async def body(agent: Agent) -> Any:
            await agent.ok("browser_navigate", {"url": site.url("/start")})
            return await agent.ok(
                "browser_evaluate", {"expression": f"({NO_CORS})({other.url('/api/data')!r})"}
            )

        seen = with_agent(host, body)
    finally:
        host.stop()
        httpd.stop()
    assert seen == "sent"


# -- 8. browser_wait_for {time}; browser_file_upload with several paths ----------------------


def test_wait_for_time_and_an_upload_of_several_files(
    site: Site, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("uploads")
    (folder / "a.txt").write_text("alpha")
    (folder / "b.txt").write_text("bravo!")
    host = serve_host("--upload-dir", str(folder), "--timeout-settle", "0")
    try:

        async def body(agent: Agent) -> tuple[Any, ...]:
            await agent.ok("browser_navigate", {"url": site.url("/files")})
            uploaded = await agent.ok(
                "browser_file_upload", {"target": "#many", "paths": ["a.txt", "b.txt"]}
            )
            names = await agent.ok("browser_evaluate", {"expression": "() => out.textContent"})
            refused = await agent.fails(
                "browser_file_upload",
                {"target": "#many", "paths": ["a.txt", "../../etc/passwd"]},
                "upload_not_allowed",
            )
            started = time.monotonic()
            await agent.ok("browser_wait_for", {"time": 1.5})
            waited = time.monotonic() - started
            too_long = await agent.fails("browser_wait_for", {"time": 31}, "invalid_argument")
            return uploaded, names, refused, waited, too_long

        uploaded, names, refused, waited, too_long = with_agent(host, body)
    finally:
        host.stop()
    assert uploaded["uploaded"] == [{"name": "a.txt", "bytes": 5}, {"name": "b.txt", "bytes": 6}]
    assert names == "a.txt:5,b.txt:6"  # the page got both files
    assert "(at paths[1])" in refused
    assert waited >= 1.5  # a lower bound: it waited at least the time asked
    assert "(at time)" in too_long and "30" in too_long

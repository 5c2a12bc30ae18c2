"""Issue 36: @playwright/mcp 0.0.83's argument shapes, taken as the peer takes them (a model
prompted for the peer never gets invalid_argument for them): browser_route's flat form,
browser_fill_form's `{name, type, ref, value}` fields, browser_snapshot's `filename`,
browser_console_messages' `all` and `filename`, browser_file_upload answering the file chooser
the page opened. Checked through MCP (the official SDK's client over streamable HTTP) in
Chromium, by what the page did and what the model reads."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from host_tests.host_helpers import ServedHost, serve_host
from local_server import PageHandler, serve

from host_agent.agent_client import Agent, text_of, with_agent

T = TypeVar("T")

PAGES = {
    "/form": "<title>Form</title><input id=name aria-label=Name>"
    "<input type=checkbox id=agree aria-label=Agree>"
    "<select id=size aria-label=Size><option>Small</option><option>Large</option></select>"
    "<input type=range id=volume min=0 max=10 value=1 aria-label=Volume>",
    "/files": "<title>Files</title><input type=file id=f style=display:none "
    "onchange=\"document.getElementById('out').textContent = [...this.files].map(f => f.name)"
    ".join(',')\"><button id=pick onclick=\"document.getElementById('f').click()\">Pick</button>"
    "<p id=out>none</p>",
    "/log": "<title>Log</title><button id=more onclick=\"console.log('second ' + Date.now())\">"
    "More</button><script>console.log('first message')</script>",
}


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    class Handler(PageHandler):
        def do_GET(self) -> None:
            if self.path in PAGES:
                self._send(200, "text/html; charset=utf-8", PAGES[self.path].encode())
            elif self.path == "/echo":
                headers = {k.lower(): v for k, v in self.headers.items()}
                self._send(200, "application/json", json.dumps(headers).encode())
            else:
                self._send(404, "text/plain", b"not found")

    httpd = serve(Handler)
    yield httpd.origin
    httpd.stop()


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    uploads = tmp_path_factory.mktemp("uploads")
    (uploads / "cv.txt").write_text("my cv\n")
    return uploads, tmp_path_factory.mktemp("output")


@pytest.fixture(scope="module")
def host(folders: tuple[Path, Path]) -> Iterator[ServedHost]:
    uploads, output = folders
    served = serve_host("--upload-dir", str(uploads), "--output-dir", str(output))
    yield served
    served.stop()


def test_route_takes_the_peers_flat_form(host: ServedHost, base: str) -> None:
    async def body(agent: Agent) -> tuple[Any, Any, Any, str]:
        await agent.ok("browser_navigate", {"url": base + "/form"})
        await agent.ok(
            "browser_route",
            {
                "pattern": "**/api/mock",
                "status": 201,
                "body": '{"mocked": true}',
                "contentType": "application/json",
                "headers": ["X-Mock: yes"],
            },
        )
        mocked = await agent.ok(
            "browser_evaluate",
            {
                "function": "() => fetch('/api/mock').then(async r => ({status: r.status, "
                "body: await r.json(), mock: r.headers.get('x-mock')}))"
            },
        )
        await agent.ok(
            "browser_route",
            {"pattern": "**/echo", "headers": ["X-Added: 1"], "removeHeaders": "Accept, X-None"},
        )
        echoed = await agent.ok(
            "browser_evaluate", {"function": "() => fetch('/echo').then(r => r.json())"}
        )
        listed = await agent.ok("browser_route_list", {})
        mixed = await agent.fails(
            "browser_route",
            {"pattern": "**/x", "status": 200, "abort": {"errorCode": "failed"}},
            "invalid_argument",
        )
        return mocked, echoed, listed, mixed

    mocked, echoed, listed, mixed = with_agent(host, body)
    assert mocked == {"status": 201, "body": {"mocked": True}, "mock": "yes"}
    assert echoed.get("x-added") == "1" and "accept" not in echoed, echoed
    assert "remove" in json.dumps(listed) and "Accept" in json.dumps(listed)
    assert "status" in mixed and "not both" in mixed


def test_fill_form_takes_the_peers_fields(host: ServedHost, base: str) -> None:
    async def body(agent: Agent) -> tuple[Any, str]:
        await agent.ok("browser_navigate", {"url": base + "/form"})
        await agent.ok(
            "browser_fill_form",
            {
                "fields": [
                    {"name": "Name", "type": "textbox", "ref": "#name", "value": "Ada"},
                    {"name": "Agree", "type": "checkbox", "target": "#agree", "value": "true"},
                    {"name": "Size", "type": "combobox", "target": "#size", "value": "Large"},
                    {"name": "Volume", "type": "slider", "target": "#volume", "value": "7"},
                ]
            },
        )
        values = await agent.ok(
            "browser_evaluate",
            {
                "function": "() => [document.getElementById('name').value, agree.checked, "
                "size.value, volume.value]",
            },
        )
        wrong = await agent.fails(
            "browser_fill_form",
            {"fields": [{"name": "Name", "type": "checkbox", "ref": "#name", "value": "true"}]},
            "invalid_argument",
        )
        return values, wrong

    values, wrong = with_agent(host, body)
    assert values == ["Ada", True, "Large", "7"]
    assert "fields[0].type" in wrong and "text field" in wrong, wrong


def test_snapshot_and_console_messages_write_the_files_the_peer_names(
    host: ServedHost, base: str
) -> None:
    async def body(agent: Agent) -> tuple[dict[str, Any], Any, Any, dict[str, Any]]:
        await agent.ok("browser_navigate", {"url": base + "/form"})
        snapshot = await agent.ok("browser_snapshot", {"filename": "../form"})
        await agent.ok("browser_navigate", {"url": base + "/log"})
        first = await agent.ok("browser_console_messages", {})
        await agent.ok("browser_click", {"target": "#more"})
        everything = await agent.ok("browser_console_messages", {"all": True, "keep": True})
        saved = await agent.ok("browser_console_messages", {"all": True, "filename": "log"})
        return snapshot, first, everything, saved

    snapshot, first, everything, saved = with_agent(host, body)
    path = Path(snapshot["path"])
    assert path.name == "form.yml" and path.parent.name == "snapshots"
    assert 'textbox "Name"' in path.read_text() and snapshot["chars"] == len(path.read_text())
    assert [m["text"] for m in first["messages"]] == ["first message"]
    texts = [m["text"] for m in everything["messages"]]
    assert texts[0] == "first message" and texts[1].startswith("second "), texts
    log = Path(saved["path"])
    assert log.name == "log.log" and saved["count"] == 2
    assert log.read_text().splitlines()[0] == "[info] first message"


def test_file_upload_answers_the_chooser_the_page_opened(host: ServedHost, base: str) -> None:
    async def body(agent: Agent) -> tuple[str, str, Any, str, str]:
        await agent.ok("browser_navigate", {"url": base + "/files"})
        none_open = await agent.fails(
            "browser_file_upload", {"paths": ["cv.txt"]}, "missing_argument"
        )
        clicked = await agent.call("browser_click", {"target": "#pick"})
        uploaded = await agent.call("browser_file_upload", {"paths": ["cv.txt"]})
        out = await agent.ok("browser_get_text", {"target": "#out"})
        await agent.ok("browser_click", {"target": "#pick"})
        cancelled = await agent.call("browser_file_upload", {})
        return none_open, text_of(clicked), out, text_of(uploaded), text_of(cancelled)

    none_open, clicked, out, uploaded, cancelled = with_agent(host, body)
    assert "no file chooser is open" in none_open
    assert "file chooser open" in clicked, clicked
    assert "cv.txt" in json.dumps(out), (out, uploaded)
    assert "file chooser" not in uploaded.split("uploaded", 1)[-1], uploaded
    assert "cancelled" in cancelled, cancelled

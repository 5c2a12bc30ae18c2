"""HTTP security: Host/Origin checks, the bearer token off loopback, size limits, session ids, isolation."""

from __future__ import annotations

import asyncio
import http.client
import json
import subprocess
from typing import Any
from urllib.parse import urlsplit

import pytest
from mcp import Client

from host_tests.host_helpers import (
    PYTHON,
    REPO,
    AppServer,
    ServedHost,
    initialize_message,
    serve_host,
)
from host_tests.test_host_scripting import callback

pytestmark = pytest.mark.browser


def request(
    base: str,
    path: str,
    *,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes, dict[str, str]]:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read(), {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


def initialize(base: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str]]:
    body = json.dumps(initialize_message()).encode()
    status, _, response_headers = request(
        base,
        "/mcp",
        method="POST",
        body=body,
        headers={
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            **(headers or {}),
        },
    )
    return status, response_headers


def raw_mcp_call(base: str, tool: str, arguments: dict[str, Any]) -> str:
    """Initialize a session by hand, run one tool in it, return the session id."""
    status, headers = initialize(base)
    assert status == 200
    session = {"mcp-session-id": headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18"}
    common = {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        **session,
    }
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (
        request(base, "/mcp", method="POST", body=json.dumps(note).encode(), headers=common)[0]
        == 202
    )
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
    status, body, _ = request(
        base, "/mcp", method="POST", body=json.dumps(call).encode(), headers=common
    )
    assert status == 200 and b'"isError":false' in body.replace(b" ", b""), body
    return headers["mcp-session-id"]


def test_host_and_origin_are_checked(served: ServedHost) -> None:
    port = urlsplit(served.base).port
    assert request(served.base, "/healthz")[0] == 200
    assert request(served.base, "/healthz", headers={"host": f"localhost:{port}"})[0] == 200
    status, body, _ = request(
        served.base, "/mcp", method="POST", body=b"{}", headers={"host": f"attacker.example:{port}"}
    )
    assert status == 421 and b"Host" in body
    for path in ("/mcp", "/scripting/callback"):
        status, _, _ = request(
            served.base,
            path,
            method="POST",
            body=b"{}",
            headers={"origin": "http://attacker.example"},
        )
        assert status == 403, path
    assert initialize(served.base, {"origin": f"http://localhost:{port}"})[0] == 200
    status, headers = initialize(served.base)
    assert status == 200
    session_id = headers["mcp-session-id"]
    assert len(session_id) == 32 and int(session_id, 16) >= 0


def test_bodies_over_the_limit_are_refused(served: ServedHost) -> None:
    big = b"x" * (4 * 1024 * 1024 + 1)
    for path in ("/mcp", "/scripting/callback"):
        status, _, _ = request(
            served.base, path, method="POST", body=big, headers={"content-type": "application/json"}
        )
        assert status == 413, path


def test_a_token_is_required_off_loopback(tmp_path: Any) -> None:
    refused = subprocess.run(
        [PYTHON, "-m", "host", "serve", "--http", "0.0.0.0:0"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2 and "needs a bearer token" in refused.stderr
    token = "s3cret-" + "t" * 40
    token_file = tmp_path / "token"
    token_file.write_text(token + "\n")
    host = serve_host("--token-file", str(token_file), bind="0.0.0.0:0")
    try:
        base = host.base
        assert request(base, "/healthz")[0] == 200  # carries nothing
        status, body, headers = request(base, "/scripting/callback", method="POST", body=b"{}")
        assert status == 401 and headers["www-authenticate"] == "Bearer"
        assert (
            request(
                base, "/mcp", method="POST", body=b"{}", headers={"authorization": "Bearer wrong"}
            )[0]
            == 401
        )
        assert initialize(base)[0] == 401
        assert initialize(base, {"authorization": f"Bearer {token}"})[0] == 200
        good = {"authorization": f"Bearer {token}", "content-type": "application/json"}
        envelope = {
            "version": 1,
            "session_id": "s",
            "invocation_id": "i",
            "action": {
                "type": "call_tool",
                "tool_name": "web_evaluate",
                "arguments_json": '{"script": "1"}',
            },
        }
        status, body, _ = request(
            base,
            "/scripting/callback",
            method="POST",
            body=json.dumps(envelope).encode(),
            headers=good,
        )
        assert status == 200 and json.loads(body)["result"]["success"] is True
        assert token.encode() not in body
    finally:
        host.stop()
    assert token not in "".join(host.log)


def test_one_session_cannot_reach_another(served: ServedHost, app: AppServer) -> None:
    """Cookies, storage, pages, buffers and routes stay in their session, whatever id the other names."""
    callback(served, "victim", "web_navigate", {"url": app.url("/page")})
    callback(
        served,
        "victim",
        "web_evaluate",
        {
            "script": "document.cookie = 'sid=victim'; localStorage.secret = 'v'; console.log('victim-log'); 1"
        },
    )
    callback(
        served, "victim", "web_route", {"url": "**/api/items*", "fulfill": {"json": "victim-mock"}}
    )
    callback(served, "victim", "web_tabs", {"action": "new", "url": app.url("/page2")})

    async def mcp_side() -> dict[str, Any]:
        async with Client(served.mcp_url) as client:
            await client.call_tool("web_navigate", {"url": app.url("/page")})
            read = await client.call_tool(
                "web_evaluate", {"script": "document.cookie + '|' + localStorage.secret"}
            )
            console = await client.call_tool("web_console_messages", {"level": "debug"})
            tabs = await client.call_tool("web_tabs", {})
            routes = await client.call_tool("web_route_list", {})
            fetched = await client.call_tool(
                "web_evaluate",
                {"script": f"fetch({app.url('/api/items')!r}).then(r => r.json())"},
            )
            return {
                "read": read.structured_content,
                "console": console.structured_content,
                "tabs": len(tabs.structured_content["result"]["tabs"]),  # type: ignore[index]
                "routes": routes.structured_content,
                "fetched": fetched.structured_content,
            }

    seen = asyncio.run(mcp_side())
    assert seen == {
        "read": {"result": "|undefined"},
        "console": {"result": {"messages": [], "dropped": 0}},
        "tabs": 1,
        "routes": {"result": {"routes": []}},
        "fetched": {"result": {"items": [1, 2, 3]}},
    }
    # A scripting caller naming another transport's session id gets a session of its own.
    session_id = raw_mcp_call(served.base, "web_evaluate", {"script": "window.mcpMarker = 'mcp'"})
    other = callback(served, session_id, "web_evaluate", {"script": "typeof window.mcpMarker"})
    assert other["structured_content"] == {"result": "undefined"}
    # The victim still has everything.
    mine = callback(served, "victim", "web_tabs", {"action": "select", "index": 0})
    assert len(mine["structured_content"]["result"]["tabs"]) == 2
    assert (
        callback(served, "victim", "web_evaluate", {"script": "document.cookie"})["text_content"]
        == "sid=victim"
    )

"""MCP with clients nobody here wrote: the Python SDK (in memory, stdio, streamable HTTP), the TypeScript SDK."""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
from typing import Any

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters

from host.calls.core import Host
from host.calls.registry import ToolRegistry
from host.transports.mcp_server import build_server
from host_tests.host_helpers import PYTHON, REPO, ServedHost, browser_choice, host_config

pytestmark = pytest.mark.browser

# The default toolset (web_agent) as listed by a host without --enable-execute.
DEFAULT_TOOLS = sorted(
    set(ToolRegistry().default_listing()) - {"browser_execute_python", "browser_objective"}
)
# Every tool but browser_execute_python (off unless the host is started with --enable-execute),
# browser_objective (only while recording) and the capabilities' tools (only with --caps).
ALL_LISTED = len(ToolRegistry().tools) - 2 - len(ToolRegistry().toolsets["caps"].tools)
NODE_MODULES = REPO / "node_modules"


def text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


async def exercise(client: Client) -> dict[str, Any]:
    listed = await client.list_tools()
    first = await client.call_tool("evaluate", {"expression": "window.n = (window.n || 0) + 1"})
    second = await client.call_tool("evaluate", {"expression": "window.n = (window.n || 0) + 1"})
    bad = await client.call_tool("evaluate", {"expression": 1})
    failed = await client.call_tool(
        "evaluate", {"expression": "(() => { throw new Error('nope') })()"}
    )
    unknown = await client.call_tool("evalute", {"expression": "1"})
    return {
        "names": sorted(t.name for t in listed.tools),
        "schema": next(t for t in listed.tools if t.name == "browser_tabs").input_schema,
        "first": first,
        "second": second,
        "bad": bad,
        "failed": failed,
        "unknown": unknown,
    }


def check_common(seen: dict[str, Any], names: list[str]) -> None:
    assert seen["names"] == names
    assert seen["schema"]["properties"]["action"]["enum"] == ["list", "select", "new", "close"]
    first, second = seen["first"], seen["second"]
    assert not first.is_error and first.structured_content == {"result": 1}
    assert json.loads(text(first)) == {"result": 1}
    assert second.structured_content == {"result": 2}  # same connection, same session
    bad, failed, unknown = seen["bad"], seen["failed"], seen["unknown"]
    assert bad.is_error and text(bad).startswith("Error [invalid_argument] evaluate")
    assert bad.structured_content["error"]["path"] == "expression"
    assert failed.is_error and "Error [playwright_error]" in text(failed) and "nope" in text(failed)
    assert unknown.is_error and "did you mean evaluate" in text(unknown)


def test_python_sdk_in_memory() -> None:
    async def run() -> tuple[dict[str, Any], types.CallToolResult, int, int]:
        async with Host(host_config()) as host:
            server = build_server(host, host.registry.select(["default", "web_framework"]))
            async with Client(server, mode="legacy") as client:
                seen = await exercise(client)
                await client.call_tool(
                    "web_setContent", {"html": "<h1 style='color:red'>shot</h1>"}
                )
                shot = await client.call_tool("web_screenshot", {})
                during = len(host.sessions)
            return seen, shot, during, len(host.sessions)

    seen, shot, during, after = asyncio.run(run())
    check_common(seen, sorted(set(DEFAULT_TOOLS) | set(seen["names"])))
    # default + web_framework (which holds web_setUserAgent, issue 36): no webBrowser
    assert len(seen["names"]) == ALL_LISTED - 1
    assert "web_setUserAgent" in seen["names"]
    image = shot.content[0]
    assert isinstance(image, types.ImageContent) and image.mime_type == "image/png"
    assert base64.b64decode(image.data).startswith(b"\x89PNG")
    assert shot.structured_content["result"]["image"] == "image/png"
    assert (during, after) == (1, 0)  # the connection's session closes with the connection


def test_python_sdk_over_stdio() -> None:
    params = StdioServerParameters(
        command=PYTHON, args=["-m", "host", "serve", "--stdio", *browser_choice(())], cwd=str(REPO)
    )

    async def run() -> dict[str, Any]:
        async with Client(params) as client:
            return await exercise(client)

    check_common(asyncio.run(run()), DEFAULT_TOOLS)


def test_python_sdk_over_streamable_http_one_session_per_connection(served: ServedHost) -> None:
    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Client(served.mcp_url) as one, Client(served.mcp_url) as two:
            return await exercise(one), await exercise(two)

    one, two = asyncio.run(run())
    check_common(one, one["names"])
    check_common(two, two["names"])  # counters start at 1 again: a separate session
    assert len(one["names"]) == ALL_LISTED


def run_node(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        ["node", str(REPO / "tests/host_tests/ts/mcp_sdk_client.mjs"), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def check_node(seen: dict[str, Any]) -> None:
    assert seen["schemaRequired"] == ["expression"]
    assert seen["first"] == {"result": 42} and seen["second"] == {"result": 43}
    assert json.loads(seen["firstText"]) == {"result": 42}
    assert seen["bad"]["isError"] and seen["bad"]["text"].startswith("Error [invalid_argument]")
    assert seen["unknown"]["isError"] and "did you mean evaluate" in seen["unknown"]["text"]
    assert seen["tabs"] == 2


def test_typescript_sdk_over_stdio() -> None:
    seen = run_node("stdio", PYTHON, str(REPO), *browser_choice(()))
    assert seen["names"] == DEFAULT_TOOLS
    check_node(seen)


def test_typescript_sdk_over_streamable_http(served: ServedHost) -> None:
    seen = run_node("http", served.mcp_url)
    assert len(seen["names"]) == ALL_LISTED
    check_node(seen)

"""Bad tool calls fail with a structured ToolError that names the tool and the argument path, before
the browser is touched: every call here passes page=None, which a shim would fail on at once.

Complements BAD_CALLS and test_playwright_error_is_a_tool_error in test_e2e_sync.py (see
docs/ERRORS.md): these are the cases inside lists, option objects, enums and base64 text, the exact
messages, and the async entry point.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

FILE = {"name": "a.txt", "mimeType": "text/plain", "buffer": "aGVsbG8="}

# (tool, arguments, code, path, str(error))
BAD_CALLS = [
    pytest.param(
        "web_noSuchTool", {}, "unknown_tool", "", "web_noSuchTool: no such tool; known tools: ",
        id="unknown-tool",
    ),
    pytest.param(
        "web_setExtraHTTPHeaders", {}, "missing_argument", "headers",
        "web_setExtraHTTPHeaders: required argument is missing at 'headers'",
        id="missing-required",
    ),
    pytest.param(
        "web_setExtraHTTPHeaders", {"headers": {}, "header": {}}, "unknown_argument", "header",
        "web_setExtraHTTPHeaders: unknown argument at 'header'",
        id="unknown-argument",
    ),
    pytest.param(
        "web_evaluate", ["1 + 1"], "invalid_argument", "",
        "web_evaluate: expected object, got list",
        id="arguments-not-an-object",
    ),
    pytest.param(
        "web_setExtraHTTPHeaders", {"headers": {"x-a": "1", "x-b": 2}}, "invalid_argument",
        "headers.x-b", "web_setExtraHTTPHeaders: expected string, got int at 'headers.x-b'",
        id="wrong-type-in-map",
    ),
    pytest.param(
        "web_context_grantPermissions", {"permissions": ["geolocation", 7]}, "invalid_argument",
        "permissions[1]",
        "web_context_grantPermissions: expected string, got int at 'permissions[1]'",
        id="wrong-type-in-list",
    ),
    pytest.param(
        "web_cookie_add", {"cookies": [{"name": "a", "value": 1, "url": "http://x/"}]},
        "invalid_argument", "cookies[0].value",
        "web_cookie_add: expected string, got int at 'cookies[0].value'",
        id="wrong-type-in-object-in-list",
    ),
    pytest.param(
        "web_click", {"selector": "a", "position": {"x": "1", "y": 2}}, "invalid_argument",
        "position.x", "web_click: expected number, got str at 'position.x'",
        id="wrong-type-in-option-object",
    ),
    pytest.param(
        "web_click", {"selector": "a", "position": {"x": 1}}, "missing_argument", "position.y",
        "web_click: required argument is missing at 'position.y'",
        id="missing-in-option-object",
    ),
    pytest.param(
        "web_click", {"selector": "a", "position": {"x": 1, "y": 2, "z": 3}}, "unknown_argument",
        "position.z", "web_click: unknown argument at 'position.z'",
        id="unknown-in-option-object",
    ),
    pytest.param(
        "web_click", {"selector": "a", "scroll": "sideways"}, "invalid_argument", "scroll",
        "web_click: expected one of ['auto', 'none'], got 'sideways' at 'scroll'",
        id="outside-enum",
    ),
    pytest.param(
        "web_emulateMedia", {"media": "tv"}, "invalid_argument", "media",
        "web_emulateMedia: matches none of: expected one of ['screen', 'print'], got 'tv'; "
        "expected null, got str at 'media'",
        id="outside-nullable-enum",
    ),
    pytest.param(
        "web_setInputFiles", {"selector": "input", "files": {**FILE, "buffer": "not base64!"}},
        "invalid_argument", "files.buffer",
        "web_setInputFiles: expected base64 text at 'files.buffer'",
        id="bad-base64",
    ),
    pytest.param(
        "web_setInputFiles", {"selector": "input", "files": [FILE, {**FILE, "buffer": "@@"}]},
        "invalid_argument", "files[1].buffer",
        "web_setInputFiles: expected base64 text at 'files[1].buffer'",
        id="bad-base64-in-list",
    ),
    pytest.param(
        "web_setViewportSize", {"width": 800.5, "height": 600}, "invalid_argument", "width",
        "web_setViewportSize: expected integer, got float at 'width'",
        id="fraction-for-integer",
    ),
]  # fmt: skip


@pytest.fixture(scope="module")
def registry(generated_package: Path) -> Any:
    import playwright_tools

    return playwright_tools


@pytest.mark.parametrize(("tool", "args", "code", "path", "message"), BAD_CALLS)
def test_bad_call_is_refused_before_the_browser(
    tool: str, args: object, code: str, path: str, message: str, registry: Any
) -> None:
    with pytest.raises(registry.ToolError) as raised:
        registry.dispatch(tool, args, None)
    error = raised.value
    assert (error.tool, error.code, error.path) == (tool, code, path)
    assert str(error).startswith(message) if code == "unknown_tool" else str(error) == message
    assert error.to_json() == {"tool": tool, "code": code, "path": path, "message": error.detail}


@pytest.mark.parametrize(("tool", "args", "code", "path", "message"), BAD_CALLS)
def test_async_dispatch_refuses_the_same(
    tool: str, args: object, code: str, path: str, message: str, registry: Any
) -> None:
    async def call() -> None:
        await registry.adispatch(tool, args, None)

    with pytest.raises(registry.ToolError) as raised:
        asyncio.run(call())
    assert (raised.value.code, raised.value.path) == (code, path)


def test_unknown_tool_lists_the_known_ones(registry: Any) -> None:
    with pytest.raises(registry.ToolError) as raised:
        registry.dispatch("web_clik", {}, None)
    assert raised.value.detail == "no such tool; known tools: " + ", ".join(registry.TOOLS)
    assert "web_click" in raised.value.detail


@pytest.mark.parametrize(
    ("files", "path"),
    [({**FILE, "buffer": "not base64!"}, "files.buffer"), ([FILE, {**FILE, "buffer": "@@"}], "files[1].buffer")],
    ids=["object", "list"],
)  # fmt: skip
def test_bad_base64_names_the_buffer(files: object, path: str, registry: Any) -> None:
    with pytest.raises(registry.ToolError) as raised:
        registry.dispatch("web_setInputFiles", {"selector": "input", "files": files}, None)
    assert raised.value.path == path

"""The scripting callback contract, and the TypeScript client driving the host end to end."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from host_tests.host_helpers import REPO, AppServer, ServedHost

TSC = REPO / "node_modules/.bin/tsc"


def post(
    url: str, body: bytes | dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        url,
        data=data,
        method="POST",
        headers={"content-type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def envelope(session: str, tool: str, arguments: Any, invocation: str = "inv-1") -> dict[str, Any]:
    return {
        "version": 1,
        "session_id": session,
        "invocation_id": invocation,
        "action": {"type": "call_tool", "tool_name": tool, "arguments_json": json.dumps(arguments)},
    }


def callback(
    served: ServedHost, session: str, tool: str, arguments: Any, shape: str | None = "host"
) -> dict[str, Any]:
    """The call's `call_tool_result`; `shape` is the `X-Result-Shape` header (None: not sent)."""
    headers = {} if shape is None else {"x-result-shape": shape}
    status, answer = post(
        served.base + "/scripting/callback", envelope(session, tool, arguments), headers
    )
    assert status == 200, answer
    return answer["result"]  # type: ignore[no-any-return]


def test_the_envelope_is_kept_exactly(served: ServedHost, app: AppServer) -> None:
    ok = callback(served, "contract", "web_evaluate", {"script": "[1, 'two']"})
    assert ok == {
        "type": "call_tool_result",
        "success": True,
        "text_content": '[1, "two"]',
        "error_message": "",
        "structured_content": {"result": [1, "two"]},
    }
    # Every tool of the always-enabled toolsets, generated or hand-authored, is reachable.
    callback(served, "contract", "web_navigate", {"url": app.url("/page")})
    assert callback(served, "contract", "web_title", {})["text_content"] == "host e2e"
    assert (
        callback(served, "contract", "web_tabs", {})["structured_content"]["result"]["tabs"][0][
            "title"
        ]
        == "host e2e"
    )
    failed = callback(served, "contract", "web_setViewportSize", {"width": "wide", "height": 1})
    assert failed["success"] is False and failed["text_content"] == ""
    assert failed["error_message"].startswith("Error [invalid_argument] web_setViewportSize")
    assert failed["structured_content"]["error"] == {
        "tool": "web_setViewportSize",
        "code": "invalid_argument",
        "path": "width",
        "message": "expected integer, got str",
    }


def test_without_the_host_shape_a_success_is_text_only_as_trailblazes_tools_answer(
    served: ServedHost, app: AppServer
) -> None:
    """Trailblaze's SDK returns `structured_content` when it is not null and `text_content`
    otherwise; its Kotlin tools answer text only, which the generated augmentation declares
    (`result: string`). Without `X-Result-Shape: host` the host answers the same way."""
    callback(served, "text-only", "web_navigate", {"url": app.url("/page")}, shape=None)
    title = callback(served, "text-only", "web_title", {}, shape=None)
    assert title == {
        "type": "call_tool_result",
        "success": True,
        "text_content": "host e2e",
        "error_message": "",
        "structured_content": None,
    }
    listed = callback(served, "text-only", "web_evaluate", {"script": "[1, 'two']"}, shape="sdk")
    assert listed["text_content"] == '[1, "two"]' and listed["structured_content"] is None
    # A failure keeps its located error either way (the SDK reads only `error_message`).
    failed = callback(served, "text-only", "web_setViewportSize", {"width": "w"}, shape=None)
    assert failed["success"] is False and failed["structured_content"]["error"]["path"]


def test_undispatchable_requests_get_the_error_variant(served: ServedHost) -> None:
    url = served.base + "/scripting/callback"
    good = envelope("contract-errors", "web_title", {})
    cases: list[bytes | dict[str, Any]] = [
        b"not json",
        {**good, "version": 2},
        {**good, "session_id": ""},
        {**good, "action": {"type": "tap"}},
        {**good, "action": {**good["action"], "arguments_json": "{oops"}},
        {**good, "action": {**good["action"], "arguments_json": "[1]"}},
    ]
    for body in cases:
        status, answer = post(url, body)
        assert (
            status == 400 and answer["result"]["type"] == "error" and answer["result"]["message"]
        ), body


def test_typescript_client_end_to_end(served: ServedHost, app: AppServer, tmp_path: Path) -> None:
    compiled = subprocess.run(
        [
            str(TSC),
            "--strict",
            "-p",
            str(REPO / "tests/host_tests/ts/tsconfig.json"),
            "--outDir",
            str(tmp_path),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    ran = subprocess.run(
        ["node", str(tmp_path / "tests/host_tests/ts/e2e.js")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOST_URL": served.base, "APP_URL": app.base},
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    assert result == {
        "ok": True,
        "done": [
            "setExtraHTTPHeaders",
            "addInitScript",
            "setGeolocation",
            "setOfflineMode",
            "setViewportSize",
        ],
    }
    # The header reached the test server, not only the page.
    assert any(h.get("x-e2e-token") == "from-typescript" for h in app.headers_for("/page"))

"""Engine order and the health check without a browser; the HTTP checks in front of every route.

In process, through a minimal ASGI client (no server needed for what is tested here).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.types import ASGIApp, Message

from host.executor.app import build_app
from host.executor.service import ExecutorService
from host.executor.settings import ExecutorSettings

pytestmark = pytest.mark.browser

PAYLOAD = json.dumps({"url": "http://127.0.0.1:9/"}).encode()


async def asgi(
    app: ASGIApp,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """One request straight into the app: status and JSON body."""
    merged = {"host": "127.0.0.1:8091", **{k.lower(): v for k, v in (headers or {}).items()}}
    raw_headers = [(k.encode(), v.encode()) for k, v in merged.items()]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": raw_headers,
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8091),
    }
    incoming: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[Message] = []

    async def receive() -> Message:
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    data = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(data)


def test_when_no_engine_launches_healthz_says_why_and_actions_are_refused() -> None:
    settings = ExecutorSettings(
        engines=("firefox", "chromium"), executable_path="/nonexistent/chromium"
    )

    async def scenario() -> tuple[Any, ...]:
        service = ExecutorService(settings)
        await service.start()
        app = build_app(service)
        try:
            health = await asgi(app, "GET", "/healthz")
            action = await asgi(
                app, "POST", "/execute", PAYLOAD, {"content-type": "application/json"}
            )
        finally:
            await service.close()
        return health, action

    (status, health), (action_status, action) = asyncio.run(scenario())
    assert status == 503
    assert health["ok"] is False and health["browser"]["connected"] is False
    assert [f["engine"] for f in health["engines"]["failed"]] == ["firefox", "chromium"]
    assert all(f["error"] for f in health["engines"]["failed"])
    assert "firefox:" in health["reason"] and "chromium:" in health["reason"]
    assert "/nonexistent/chromium" in health["reason"]
    assert action_status == 503 and action["error"]["code"] == "browser_unavailable"


def test_the_engine_order_falls_through_to_the_first_that_launches() -> None:
    async def scenario() -> tuple[int, dict[str, Any]]:
        service = ExecutorService(ExecutorSettings(engines=("webkit", "chromium")))
        await service.start()
        try:
            return await service.health()
        finally:
            await service.close()

    status, health = asyncio.run(scenario())
    assert status == 200, health
    assert health["browser"]["engine"] == "chromium"
    assert health["engines"]["order"] == ["webkit", "chromium"]
    assert [f["engine"] for f in health["engines"]["failed"]] == ["webkit"]


def test_a_token_guards_every_route_but_healthz_and_hosts_are_checked() -> None:
    # The service is never started: these answers come before any browser work.
    service = ExecutorService(ExecutorSettings(token="t0ken-123", allowed_hosts=("executor:8091",)))
    app = build_app(service, "0.0.0.0")
    json_type = {"content-type": "application/json"}

    async def scenario() -> list[tuple[int, dict[str, Any]]]:
        return [
            await asgi(app, "POST", "/execute", PAYLOAD, json_type),
            await asgi(app, "GET", "/sandbox"),
            await asgi(
                app, "POST", "/execute", b"{}", {**json_type, "authorization": "Bearer wrong"}
            ),
            await asgi(
                app, "POST", "/execute", b"{}", {**json_type, "authorization": "Bearer t0ken-123"}
            ),
            await asgi(app, "GET", "/healthz", headers={"host": "evil.example"}),
            await asgi(
                app,
                "POST",
                "/execute",
                b"{}",
                {**json_type, "authorization": "Bearer t0ken-123", "host": "executor:8091"},
            ),
            await asgi(
                app,
                "POST",
                "/execute",
                b"{}",
                {
                    **json_type,
                    "authorization": "Bearer t0ken-123",
                    "origin": "https://evil.example",
                },
            ),
        ]

    async def guarded() -> list[tuple[int, dict[str, Any]]]:
        try:
            return await scenario()
        finally:
            await service.close()

    answers = asyncio.run(guarded())
    assert [status for status, _ in answers] == [401, 401, 401, 400, 421, 400, 403]
    assert answers[3][1]["error"]["path"] == "url"
    assert all("t0ken-123" not in json.dumps(body) for _, body in answers)

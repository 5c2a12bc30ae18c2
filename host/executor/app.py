"""The executor's ASGI app: `POST /execute`, `GET /healthz`, `GET /sandbox`, behind the host's checks."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from host.executor.logs import event
from host.executor.service import ExecutorService
from host.jsontypes import JsonObject
from host.security import SecurityMiddleware

NO_STORE = {"cache-control": "no-store"}


def _json(status: int, body: JsonObject) -> Response:
    return JSONResponse(body, status_code=status, headers=NO_STORE)


class JsonBodyLimit:
    """Refuses a request body over `limit` bytes with 413 `payload_too_large` (JSON), whether its
    `Content-Length` says so up front or a chunked body grows past it; nothing of it is kept."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        replay: list[Message] = [
            {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        ]

        async def replayed() -> Message:
            return replay.pop() if replay else await receive()

        await self.app(scope, replayed, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "ok": False,
                "error": {
                    "code": "payload_too_large",
                    "message": f"the request body is larger than {self.limit} bytes",
                    "path": "$",
                },
            }
        ).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def build_app(
    service: ExecutorService,
    bind_host: str = "127.0.0.1",
    *,
    announce: Callable[[], JsonObject] | None = None,
) -> ASGIApp:
    """The executor over HTTP.

    Guarantees: bodies over the settings' limit are 413 before anything parses them; `Host` and
    `Origin` are checked and, with a token, every route but `/healthz` needs it (the host's
    `SecurityMiddleware`); every answer, errors included (404, 405, 500), is a JSON body with a
    code; the service starts (engine selection, browser launch) before the first request is served
    and is closed with the app; `announce` supplies the `executor_web.listening` event's fields.
    """

    async def execute(request: Request) -> Response:
        body = await request.body()
        status, answer = await service.execute(body, request.headers.get("content-type"))
        return _json(status, answer)

    async def healthz(request: Request) -> Response:
        status, answer = await service.health()
        return _json(status, answer)

    async def sandbox(request: Request) -> Response:
        return _json(200, service.sandbox())

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return _json(
            error.status_code,
            {"ok": False, "error": {"code": code, "message": str(error.detail)}},
        )

    async def server_error(request: Request, error: Exception) -> Response:
        return _json(
            500, {"ok": False, "error": {"code": "internal_error", "message": "the service failed"}}
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await service.start()
        if announce is not None:
            event("executor_web.listening", **announce())
        try:
            yield
        finally:
            await service.close()

    app = Starlette(
        routes=[
            Route("/execute", execute, methods=["POST"]),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/sandbox", sandbox, methods=["GET"]),
        ],
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    secured = SecurityMiddleware(app, service.settings.host_config("chromium"), bind_host)
    return JsonBodyLimit(secured, service.settings.max_body_bytes)

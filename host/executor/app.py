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
from starlette.types import ASGIApp

from host.executor.logs import event, log
from host.executor.service import ExecutorService
from host.shared.jsontypes import JsonObject
from host.transports.security import SecurityMiddleware

NO_STORE = {"cache-control": "no-store"}


RETRY_AFTER_S = 1
_RETRY_CODES = frozenset({"busy", "browser_unavailable"})


def _json(status: int, body: JsonObject) -> Response:
    headers = dict(NO_STORE)
    error = body.get("error")
    if status == 503 and isinstance(error, dict) and error.get("code") in _RETRY_CODES:
        headers["retry-after"] = str(RETRY_AFTER_S)
    return JSONResponse(body, status_code=status, headers=headers)


def executor_refusal(status: int, code: str, message: str) -> bytes:
    """A refusal before the route (size, depth, Host, Origin, token) in the executor's shape."""
    error: JsonObject = {"code": code, "message": message}
    if status in (400, 413):
        error["path"] = "$"
    return json.dumps({"ok": False, "error": error}).encode()


def build_app(
    service: ExecutorService,
    bind_host: str = "127.0.0.1",
    *,
    port: int | None = None,
    announce: Callable[[], JsonObject] | None = None,
) -> ASGIApp:
    """The executor over HTTP.

    Guarantees: bodies over the settings' limit are 413, and bodies nested too deep 400, before
    anything parses them; `Host` and `Origin` are checked and, with a token, every route but `/healthz` needs it (the host's
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
        log.error("the service failed on %s", request.url.path, exc_info=error)
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
    return SecurityMiddleware(
        app,
        service.settings.host_config("chromium"),
        bind_host,
        port=port,
        refusal=executor_refusal,
    )

"""One Starlette app: MCP over streamable HTTP at `/mcp`, the scripting callback, a health check."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp

from host.calls.core import Host
from host.sessions.keys import SessionKey
from host.transports.mcp_server import build_server
from host.transports.scripting import scripting_endpoint
from host.transports.security import SecurityMiddleware


def build_app(host: Host, bind_host: str = "127.0.0.1", *, port: int | None = None) -> ASGIApp:
    """The host's HTTP application, behind the security middleware.

    Guarantees: `/mcp` keeps one MCP session per `mcp-session-id` (each with its own browser
    session, closed when the MCP session ends or idles out, whichever is first); the host is
    started with the app and closed (sessions, browser) when the app shuts down.
    """
    # --shared-browser-context: every connection calls in one session, which idles out.
    shared = SessionKey("mcp", "shared") if host.config.shared_context else None
    server = build_server(host, host.registry.select(host.config.toolsets), fixed_key=shared)
    manager = StreamableHTTPSessionManager(
        app=server,
        json_response=False,
        security_settings=None,  # SecurityMiddleware checks Host/Origin/token for every route
        session_idle_timeout=host.config.idle_timeout,
        max_request_body_size=host.config.max_body_bytes,
        max_sessions=host.config.max_sessions,
    )

    async def health(request: Request) -> JSONResponse:
        # A real round trip: a dead driver or a hung browser shows here, not only on a call. A
        # browser not started yet is no problem (the first call starts it); one that went away
        # is, until a call relaunches it.
        problem = None
        if host.endpoints.several:
            # Several endpoints: the host serves while one is up (the others are retried).
            if not any(e.up for e in host.endpoints.endpoints):
                problem = "no browser endpoint is up"
        elif host.pool.connected is not None:
            problem = await host.pool.probe()
        elif host.pool.launches > 0:
            problem = host.pool.gone()
        # Counted in the browser, not in the host's books: leaked contexts or pages would show.
        browsers = [e.pool.connected for e in host.endpoints.endpoints]
        browser = browsers[0]
        contexts = [c for b in browsers if b is not None for c in b.contexts]
        extra = {}
        if host.config.browser_endpoints:
            extra["endpoints"] = host.endpoints.report()
        return JSONResponse(
            {
                **extra,
                "ok": problem is None,
                "browser": {
                    "connected": browser is not None,
                    "problem": problem,
                    "lastLoss": host.pool.last_loss,
                },
                "sessions": len(host.sessions),
                "contexts": len(contexts),
                "pages": sum(len(c.pages) for c in contexts),
                "browserLaunches": host.pool.launches,
                "driverStarts": host.pool.driver_starts,
            },
            status_code=200 if problem is None else 503,
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await host.start()
        try:
            async with manager.run():
                yield
        finally:
            await host.close()

    app = Starlette(
        routes=[
            Route("/mcp", StreamableHTTPASGIApp(manager)),
            Route("/scripting/callback", scripting_endpoint(host), methods=["POST"]),
            Route("/healthz", health, methods=["GET"]),
        ],
        lifespan=lifespan,
    )
    return SecurityMiddleware(
        app, host.config, bind_host, port=port, jsonrpc_paths=frozenset({"/mcp"})
    )

"""HTTP request checks in front of every route: Host and Origin (DNS rebinding), bearer token, body size."""

from __future__ import annotations

import hmac
import json
from urllib.parse import urlsplit

from mcp.server.transport_security import RequestBodyLimitMiddleware
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from host.config import LOOPBACK_HOSTS, HostConfig

PUBLIC_PATHS = frozenset({"/healthz"})


def _hostname(value: str) -> str:
    """`name` of `name:port`, `[::1]:port` → `::1`; lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class SecurityMiddleware:
    """Refuses requests that a browser on another site, or a caller without the token, could send.

    Guarantees: a request whose `Host` names anything but a loopback name, the bound address or a
    configured host is answered 421 before any route runs (a DNS-rebinding page cannot reach the
    host); a request carrying an `Origin` other than those hosts' is answered 403; when a token is
    configured, every request but `/healthz` needs `Authorization: Bearer <token>` (compared in
    constant time) or is answered 401; a body over the configured size is answered 413. Error
    bodies never echo the token or the request.
    """

    def __init__(self, app: ASGIApp, config: HostConfig, bind_host: str) -> None:
        self.app = RequestBodyLimitMiddleware(app, config.max_body_bytes)
        self.token = config.token.encode() if config.token else None
        hosts = set(LOOPBACK_HOSTS) | {_hostname(h) for h in config.allowed_hosts}
        if bind_host not in ("0.0.0.0", "::", ""):
            hosts.add(_hostname(bind_host) if ":" not in bind_host else bind_host.lower())
        self.hosts = frozenset(hosts)
        self.origins = frozenset(o.rstrip("/").lower() for o in config.allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host")
        if host is None or _hostname(host) not in self.hosts:
            await _refuse(
                send,
                421,
                "misdirected_request",
                "the Host header names a host this server does not serve",
            )
            return
        origin = headers.get("origin")
        if origin is not None and not self._origin_ok(origin):
            await _refuse(
                send, 403, "forbidden_origin", "requests from this Origin are not allowed"
            )
            return
        if self.token is not None and scope.get("path") not in PUBLIC_PATHS:
            supplied = headers.get("authorization", "")
            scheme, _, credential = supplied.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(
                credential.strip().encode(), self.token
            ):
                await _refuse(
                    send, 401, "unauthorized", "a valid bearer token is required", bearer=True
                )
                return
        await self.app(scope, receive, send)

    def _origin_ok(self, origin: str) -> bool:
        normalized = origin.rstrip("/").lower()
        if normalized in self.origins:
            return True
        parts = urlsplit(normalized)
        return parts.scheme in ("http", "https") and (parts.hostname or "") in self.hosts


async def _refuse(
    send: Send, status: int, code: str, message: str, *, bearer: bool = False
) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if bearer:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

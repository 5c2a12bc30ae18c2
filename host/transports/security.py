"""HTTP request checks in front of every route: Host and Origin (DNS rebinding and pages in the
browser), bearer token, content type of the scripting callback, body size and depth."""

from __future__ import annotations

import hmac
import ipaddress
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from host.settings.config import LOOPBACK_HOSTS, HostConfig
from host.transports.http_server import BodyGuard, Refusal, host_refusal

PUBLIC_PATHS = frozenset({"/healthz"})
NO_ORIGIN_PATHS = frozenset({"/scripting/callback"})
"""Endpoints that no web page may call: any `Origin` header (a browser sends one with every
POST) is refused there, unless the operator listed that origin."""
JSON_ONLY_PATHS = frozenset({"/scripting/callback"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _is_loopback_literal(name: str) -> bool:
    """Whether `name` is an IP address literal of this machine's loopback, however spelled
    (`::1`, `0:0:0:0:0:0:0:1`, `::ffff:127.0.0.1`, `127.0.0.2`): no DNS name, so no rebinding."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def _hostname(value: str) -> str:
    """`name` of `name:port`, `[::1]:port` → `::1`; lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class SecurityMiddleware:
    """Refuses requests that a web page, a browser on another site, or a caller without the token
    could send.

    Guarantees: a request whose `Host` names anything but a loopback name, the bound address or a
    configured host is answered 421 before any route runs (a DNS-rebinding page cannot reach the
    host); a request carrying an `Origin` is answered 403 unless that origin is configured or is
    this server's own (scheme, a name above, and this server's port); on the scripting callback
    every `Origin` is refused unless configured, and a body that is not `application/json` is
    answered 415 (a page can send `text/plain` without asking first, never `application/json`);
    when a token is configured, every request but `/healthz` needs `Authorization: Bearer
    <token>` (compared in constant time) or is answered 401; a body over the configured size is
    answered 413 and one nested too deep 400, before any parser sees it. Error bodies never echo
    the token or the request.
    """

    def __init__(
        self,
        app: ASGIApp,
        config: HostConfig,
        bind_host: str,
        *,
        port: int | None = None,
        refusal: Refusal = host_refusal,
        jsonrpc_paths: frozenset[str] = frozenset(),
    ) -> None:
        self.app = BodyGuard(
            app,
            config.max_body_bytes,
            config.argument_limits.depth + 16,
            refusal,
            jsonrpc_paths=jsonrpc_paths,
        )
        self.refusal = refusal
        self.token = config.token.encode() if config.token else None
        hosts = set(LOOPBACK_HOSTS) | {_hostname(h) for h in config.allowed_hosts}
        if bind_host not in ("0.0.0.0", "::", ""):
            hosts.add(_hostname(bind_host) if ":" not in bind_host else bind_host.lower())
        self.hosts = frozenset(hosts)
        self.port = port
        self.origins = frozenset(o.rstrip("/").lower() for o in config.allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        path = scope.get("path", "")
        if "transfer-encoding" in headers and "content-length" in headers:
            # Two framings: a proxy in front may read the body by one and this server by the
            # other (request smuggling). Refused, and the connection closed behind it.
            await self._refuse(
                send,
                400,
                "ambiguous_framing",
                "the request carries both Content-Length and Transfer-Encoding; send one",
                close=True,
            )
            return
        host = headers.get("host")
        if host is None or not self._host_ok(_hostname(host)):
            await self._refuse(
                send,
                421,
                "misdirected_request",
                "the Host header names a host this server does not serve",
            )
            return
        origin = headers.get("origin")
        if origin is not None and not self._origin_ok(origin, path):
            await self._refuse(
                send,
                403,
                "forbidden_origin",
                "requests from web pages are not accepted here"
                if path in NO_ORIGIN_PATHS
                else "requests from this Origin are not allowed",
            )
            return
        if self.token is not None and path not in PUBLIC_PATHS:
            supplied = headers.get("authorization", "")
            scheme, _, credential = supplied.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(
                credential.strip().encode(), self.token
            ):
                await self._refuse(
                    send, 401, "unauthorized", "a valid bearer token is required", bearer=True
                )
                return
        if path in JSON_ONLY_PATHS and scope.get("method") == "POST":
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                await self._refuse(
                    send,
                    415,
                    "unsupported_media_type",
                    "the body must be JSON, sent with Content-Type: application/json",
                )
                return
        await self.app(scope, receive, send)

    def _host_ok(self, name: str) -> bool:
        return name in self.hosts or _is_loopback_literal(name)

    def _origin_ok(self, origin: str, path: str) -> bool:
        normalized = origin.rstrip("/").lower()
        if normalized in self.origins:
            return True
        if path in NO_ORIGIN_PATHS:
            return False
        try:
            parts = urlsplit(normalized)
            port = parts.port
        except ValueError:
            return False
        if parts.scheme not in _DEFAULT_PORTS or not self._host_ok(parts.hostname or ""):
            return False
        if self.port is None:
            return True
        return (port or _DEFAULT_PORTS[parts.scheme]) == self.port

    async def _refuse(
        self,
        send: Send,
        status: int,
        code: str,
        message: str,
        *,
        bearer: bool = False,
        close: bool = False,
    ) -> None:
        body = self.refusal(status, code, message)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        if close:
            headers.append((b"connection", b"close"))
        if bearer:
            headers.append((b"www-authenticate", b"Bearer"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

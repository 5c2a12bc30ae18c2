"""A session's routes: what `browser_route` installed, and how a matched request is answered."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from playwright.async_api import Route

from host.sessions.session_state import SessionState
from host.settings.config import HostConfig
from host.shared.jsontypes import JsonObject


@dataclass
class RouteRule:
    """A route the session installed with `web_route`, and how often it fired."""

    url: str
    action: str
    spec: JsonObject
    times: int | None
    hits: int = 0
    handler: object = field(default=None, repr=False)

    def to_json(self) -> JsonObject:
        """What the route answers: a fulfilled one its `status`, `contentType`, `headers` and
        `bodyBytes` (the body's size in UTF-8, not the body), an aborted one its `errorCode`, a
        continued one the `headers` it adds."""
        described: JsonObject = {
            "url": self.url,
            "action": self.action,
            "hits": self.hits,
            "times": self.times,
        }
        spec = self.spec
        headers = spec.get("headers")
        if self.action == "fulfill":
            described["status"] = spec.get("status") or 200
            body = spec.get("body")
            content_type = spec.get("contentType")
            if "json" in spec:
                body = json.dumps(spec["json"])
                content_type = content_type or "application/json"
            if content_type:
                described["contentType"] = content_type
            described["bodyBytes"] = len(str(body).encode()) if body is not None else 0
        elif self.action == "abort":
            described["errorCode"] = spec.get("errorCode") or "failed"
        if isinstance(headers, dict) and headers:
            described["headers"] = headers
        if self.action == "continue" and spec.get("remove"):
            described["remove"] = spec["remove"]
        return described


class Routes(SessionState):
    """The route part of a session: `routes`, in the order they were installed; a rule with
    `times` leaves the list once it has fired that often."""

    def _init_routes(self, config: HostConfig) -> None:
        """No route installed."""
        self.routes: list[RouteRule] = []

    async def add_route(self, rule: RouteRule) -> None:
        async def handler(route: Route) -> None:
            rule.hits += 1
            if rule.times is not None and rule.hits >= rule.times and rule in self.routes:
                self.routes.remove(rule)
            await _apply_route(route, rule)

        rule.handler = handler
        await self.context.route(rule.url, handler, times=rule.times)
        self.routes.append(rule)

    async def remove_routes(self, url: str | None) -> int:
        """Remove the routes installed with exactly the glob `url` (every route when None)."""
        removed = [r for r in self.routes if url is None or r.url == url]
        for rule in removed:
            self.routes.remove(rule)
            await self.context.unroute(rule.url, rule.handler)  # type: ignore[arg-type]
        return len(removed)


async def _apply_route(route: Route, rule: RouteRule) -> None:
    spec = rule.spec
    if rule.action == "abort":
        await route.abort(str(spec.get("errorCode") or "failed"))
    elif rule.action == "fulfill":
        headers = spec.get("headers")
        body = spec.get("body")
        content_type = spec.get("contentType")
        if "json" in spec:
            body = json.dumps(spec["json"])
            content_type = content_type or "application/json"
        await route.fulfill(
            status=int(spec.get("status") or 200),  # type: ignore[arg-type]
            headers=headers if isinstance(headers, dict) else None,  # type: ignore[arg-type]
            content_type=str(content_type) if content_type else None,
            body=str(body) if body is not None else None,
        )
    else:
        overrides = spec.get("headers")
        removed = spec.get("remove")
        if isinstance(overrides, dict) or isinstance(removed, list):
            gone = {str(name).lower() for name in removed} if isinstance(removed, list) else set()
            added = overrides if isinstance(overrides, dict) else {}
            merged = {k: v for k, v in route.request.headers.items() if k.lower() not in gone}
            merged |= {k: str(v) for k, v in added.items()}
            # `fallback`, not `continue_`: the request still passes the routes installed before
            # this rule (the self guard, the origin filter) on its way out.
            await route.fallback(headers=merged)
        else:
            await route.fallback()

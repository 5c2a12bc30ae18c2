"""`browser_route`: Intercept the session's requests whose URL matches a glob (`**` any characters, `*`
any but `/`, `{a,b}` either) and fulfill them with a mock response, abort them with a network
error, or continue them with extra or replaced headers.

Described by `browser_route.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

import json

from host.calls.registry import CallContext
from host.sessions.routes import RouteRule
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

MAX_ROUTES = 100
_FLAT = ("status", "body", "contentType", "headers", "removeHeaders")


def from_peer(args: JsonObject) -> JsonObject:
    """@playwright/mcp's flat arguments in ours: `status` or `body` (with `contentType` and
    `headers`) fulfill the request; else `headers` (`["Name: value"]`) and `removeHeaders`
    (`"a,b"`) change it as it is sent on. Raises ValueError (`path: message`) for a mix."""
    flat = [name for name in _FLAT if name in args]
    if not flat:
        return args
    ours = [name for name in ("fulfill", "abort", "continue") if name in args]
    if ours:
        raise ValueError(f"{flat[0]}: give the flat form or {ours[0]}, not both")
    shaped = {k: v for k, v in args.items() if k not in _FLAT}
    headers = _headers(args["headers"]) if "headers" in args else None
    if "status" in args or "body" in args:
        if "removeHeaders" in args:
            raise ValueError(
                "removeHeaders: it changes a request sent on; a mocked response (status, body) "
                "sends nothing on"
            )
        fulfill: JsonObject = {k: args[k] for k in ("status", "body", "contentType") if k in args}
        if headers:
            fulfill["headers"] = headers
        shaped["fulfill"] = fulfill
        return shaped
    if "contentType" in args:
        raise ValueError("contentType: a mocked response's; give status or body with it")
    sent_on: JsonObject = {}
    if headers:
        sent_on["headers"] = headers
    removed = args.get("removeHeaders")
    if removed is not None:
        if not isinstance(removed, str):
            raise ValueError("removeHeaders: a comma-separated list of header names, as text")
        names: list[JsonValue] = [n.strip() for n in removed.split(",") if n.strip()]
        sent_on["remove"] = names
    shaped["continue"] = sent_on
    return shaped


def _headers(given: JsonValue) -> JsonObject:
    if isinstance(given, dict):
        return given
    if not isinstance(given, list) or not all(isinstance(h, str) for h in given):
        raise ValueError('headers: a list of "Name: value" strings')
    headers: JsonObject = {}
    for index, header in enumerate(given):
        assert isinstance(header, str)
        name, colon, value = header.partition(":")
        if not colon or not name.strip():
            raise ValueError(f'headers[{index}]: expected "Name: value", got {header[:80]!r}')
        headers[name.strip()] = value.strip()
    return headers


async def browser_route(call: CallContext, args: JsonObject) -> JsonValue:
    actions = [a for a in ("fulfill", "abort", "continue") if a in args]
    if len(actions) != 1:
        raise HostError(
            "invalid_argument",
            "give exactly one of fulfill, abort or continue",
            path=actions[1] if len(actions) > 1 else "fulfill",
        )
    action = actions[0]
    spec = args[action]
    assert isinstance(spec, dict)
    if action == "fulfill":
        if "body" in spec and "json" in spec:
            raise HostError("invalid_argument", "give body or json, not both", path="fulfill.json")
        size = len(str(spec.get("body", ""))) + len(json.dumps(spec.get("json")))
        if size > call.config.max_body_bytes:
            raise HostError(
                "invalid_argument",
                f"the body is larger than the host's limit of {call.config.max_body_bytes} bytes",
                path="fulfill.body",
            )
    if len(call.session.routes) >= MAX_ROUTES:
        raise HostError(
            "too_many_routes",
            f"a session holds at most {MAX_ROUTES} routes; remove some with web_unroute",
        )
    times = args.get("times")
    rule = RouteRule(
        url=str(args["url"]),
        action=action,
        spec=spec,
        times=times if isinstance(times, int) else None,
    )
    await call.session.add_route(rule)
    return {"route": rule.to_json(), "routes": len(call.session.routes)}

"""`browser_route`: Intercept the session's requests whose URL matches a glob (`**` any characters, `*`
any but `/`, `{a,b}` either) and fulfill them with a mock response, abort them with a network
error, or continue them with extra or replaced headers.

Described by `browser_route.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

import json

from host.errors import HostError
from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.session import RouteRule

MAX_ROUTES = 100


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

"""`browser_route_list`: List the routes web_route installed in this session, with how often each
matched.

Described by `browser_route_list.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_route_list(call: CallContext, args: JsonObject) -> JsonValue:
    return {"routes": [rule.to_json() for rule in call.session.routes]}

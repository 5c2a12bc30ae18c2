"""`browser_unroute`: Remove every route web_route installed with exactly this URL glob.

Described by `browser_unroute.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext


async def browser_unroute(call: CallContext, args: JsonObject) -> JsonValue:
    removed = await call.session.remove_routes(str(args["url"]))
    return {"removed": removed, "routes": len(call.session.routes)}

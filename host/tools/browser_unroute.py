"""`browser_unroute`: Remove every route browser_route installed with exactly this URL glob, or
every route when no glob is given.

Described by `browser_unroute.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_unroute(call: CallContext, args: JsonObject) -> JsonValue:
    url = args.get("url", args.get("pattern"))  # `pattern`: @playwright/mcp's name for it
    if "pattern" in args and url != args["pattern"]:
        raise HostError("invalid_argument", "give url or pattern, not both", path="pattern")
    removed = await call.session.remove_routes(None if url is None else str(url))
    return {"removed": removed, "routes": len(call.session.routes)}

"""`browser_network_requests`: The session's requests since the last call of this tool: method, URL,
resource type, status (null while pending) and failure (null unless it failed).

Described by `browser_network_requests.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_network_requests(call: CallContext, args: JsonObject) -> JsonValue:
    entries, dropped = call.session.take_network()
    return {"requests": entries, "dropped": dropped}

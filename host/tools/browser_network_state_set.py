"""`browser_network_state_set` (capability `network`): the session's network online or offline.

Described by `browser_network_state_set.tool.yaml` beside this file. It is the session's
BrowserContext's state (`set_offline`), so every tab of the session, open or opened later, is
offline until it is set online again or the session ends.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_network_state_set(call: CallContext, args: JsonObject) -> JsonValue:
    state = str(args["state"])
    await call.session.context.set_offline(state == "offline")
    return Rendered({"network": state}, f"network is now {state}")

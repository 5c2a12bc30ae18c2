"""`browser_close`: end the caller's browser session (every tab, its cookies and storage).

Described by `browser_close.tool.yaml` beside this file. The host closes the session once the
call is answered (the result says `session.ended`); the caller's next call starts a new one.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_close(call: CallContext, args: JsonObject) -> JsonValue:
    tabs = len(call.session.tabs)
    call.session.ended = "browser_close closed the browser session"
    return {"closed": True, "tabs": tabs}

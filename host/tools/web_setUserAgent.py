"""`web_setUserAgent`: the User-Agent a session's pages send and report.

Two mechanisms, because neither covers both alone: an extra HTTP header on the context sets the
header of every request of every tab (new ones too), and DevTools' `Emulation.setUserAgentOverride`
on each tab's own session sets `navigator.userAgent` (and the header of requests the header route
does not see). A tab that opens later gets the override when it is attached (`Session`).

Described by `web_setUserAgent.tool.yaml` beside this file.
"""

from __future__ import annotations

import contextlib

from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def web_set_user_agent(call: CallContext, args: JsonObject) -> JsonValue:
    user_agent = str(args["userAgent"])
    session = call.session
    session.user_agent = user_agent
    await session.context.set_extra_http_headers({"User-Agent": user_agent})
    for tab in list(session.tabs):
        await tab.attached()
        if tab.cdp is not None:
            with contextlib.suppress(Exception):  # the tab closed meanwhile
                await tab.cdp.send("Emulation.setUserAgentOverride", {"userAgent": user_agent})
    return {"userAgent": user_agent, "tabs": len(session.tabs)}

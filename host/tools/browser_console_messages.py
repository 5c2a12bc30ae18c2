"""`browser_console_messages`: Console messages and uncaught page errors of every tab of the session,
oldest first, at or above a level.

Described by `browser_console_messages.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.session import level_at_least


async def browser_console_messages(call: CallContext, args: JsonObject) -> JsonValue:
    session = call.session
    minimum = str(args.get("level", "info"))
    messages: list[JsonValue] = [
        m for m in session.console if level_at_least(str(m.get("level")), minimum)
    ]
    dropped = session.console_dropped
    if not args.get("keep", False):
        session.console.clear()
        session.console_dropped = 0
    return {"messages": messages, "dropped": dropped}

"""`browser_console_messages`: Console messages and uncaught page errors of every tab of the session,
oldest first, at or above a level.

Described by `browser_console_messages.tool.yaml` beside this file; its arguments were checked against that
schema before it runs. As @playwright/mcp takes them, `all` also returns the messages earlier
reads returned (as many as the session keeps), and `filename` writes the messages, one a line,
in the session's folder's `console/` and returns the path instead.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.sessions.console_log import level_at_least
from host.sessions.downloads import save_output
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_console_messages(call: CallContext, args: JsonObject) -> JsonValue:
    session = call.session
    minimum = str(args.get("level", "info"))
    kept = [*session.console_read, *session.console] if args.get("all") else session.console
    messages: list[JsonValue] = [m for m in kept if level_at_least(str(m.get("level")), minimum)]
    dropped = session.console_dropped
    if not args.get("keep", False):
        session.console_read.extend(session.console)
        session.console.clear()
        session.console_dropped = 0
    requested = args.get("filename")
    if isinstance(requested, str):
        lines = [f"[{m.get('level')}] {m.get('text')}" for m in messages if isinstance(m, dict)]
        # The file is output too: a secret's value shows as its ${NAME}, as in a result.
        text = call.config.secrets.scrub("".join(line + "\n" for line in lines))
        data = text.encode("utf-8")
        path = save_output(call.session.files, "console", requested, ".log", data)
        return {"path": str(path), "count": len(messages), "dropped": dropped}
    return {"messages": messages, "dropped": dropped}

"""`browser_drag`: Drag one element onto another.

Described by `browser_drag.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_drag(call: CallContext, args: JsonObject) -> JsonValue:
    source = await locate(call.tab, str(args["target"]))
    await source.drag_to(await locate(call.tab, str(args["to"])))
    return await page_feedback(call.session)

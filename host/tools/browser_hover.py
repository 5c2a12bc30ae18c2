"""`browser_hover`: Move the mouse over an element (menus, tooltips).

Described by `browser_hover.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_hover(call: CallContext, args: JsonObject) -> JsonValue:
    await (await locate(call.tab, str(args["target"]))).hover()
    return await page_feedback(call.session)

"""`browser_hover`: Move the mouse over an element (menus, tooltips).

Described by `browser_hover.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.feedback import page_feedback
from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.targets import locate


async def browser_hover(call: CallContext, args: JsonObject) -> JsonValue:
    await (await locate(call.tab, str(args["target"]))).hover()
    return await page_feedback(call.session)

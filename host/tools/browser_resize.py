"""`browser_resize`: set the current tab's viewport size (bounded by its schema: 100-4096 px).

Described by `browser_resize.tool.yaml` beside this file.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_resize(call: CallContext, args: JsonObject) -> JsonValue:
    width, height = args["width"], args["height"]
    assert isinstance(width, int) and isinstance(height, int)
    await call.tab.page.set_viewport_size({"width": width, "height": height})
    return await page_feedback(call.session, {"viewport": {"width": width, "height": height}})

"""`browser_mouse_move_xy` (capability `vision`): move the mouse to viewport coordinates.

Described by `browser_mouse_move_xy.tool.yaml` beside this file (coordinates bounded by its schema).
"""

from __future__ import annotations

from typing import cast

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_mouse_move_xy(call: CallContext, args: JsonObject) -> JsonValue:
    await call.tab.page.mouse.move(float(cast(float, args["x"])), float(cast(float, args["y"])))
    return await page_feedback(call.session)

"""`browser_mouse_drag_xy` (capability `vision`): press the left button at one point, move to
another in steps, release.

Described by `browser_mouse_drag_xy.tool.yaml` beside this file (coordinates bounded by its schema).
"""

from __future__ import annotations

from typing import cast

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_mouse_drag_xy(call: CallContext, args: JsonObject) -> JsonValue:
    start = float(cast(float, args["startX"])), float(cast(float, args["startY"]))
    end = float(cast(float, args["endX"])), float(cast(float, args["endY"]))
    mouse = call.tab.page.mouse
    await mouse.move(*start)
    await mouse.down()
    try:
        await mouse.move(*end, steps=10)
    finally:
        await mouse.up()
    return await page_feedback(call.session)

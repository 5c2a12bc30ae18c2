"""`browser_mouse_click_xy` (capability `vision`): click at viewport coordinates.

Described by `browser_mouse_click_xy.tool.yaml` beside this file (coordinates bounded by its schema).
"""

from __future__ import annotations

from typing import Literal, cast

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_mouse_click_xy(call: CallContext, args: JsonObject) -> JsonValue:
    x, y = float(cast(float, args["x"])), float(cast(float, args["y"]))
    button = cast(Literal["left", "middle", "right"], args.get("button", "left"))
    await call.tab.page.mouse.click(x, y, button=button, click_count=2 if args.get("double") else 1)
    return await page_feedback(call.session)

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
    # @playwright/mcp's `clickCount` (1-3) and `delay` (ms between press and release) are
    # taken as it names them; `double` is ours for clickCount 2.
    count = int(cast(int, args.get("clickCount", 2 if args.get("double") else 1)))
    delay = float(cast(float, args.get("delay", 0)))
    await call.tab.page.mouse.click(x, y, button=button, click_count=count, delay=delay)
    return await page_feedback(call.session)

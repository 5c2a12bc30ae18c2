"""`browser_mouse_down`, `browser_mouse_up` (capability `vision`): one mouse button's half of a click.

Described by `browser_mouse_down.tool.yaml` and `browser_mouse_up.tool.yaml` beside this file.
They act where the mouse is, so a press, moves and a release make a drag of any shape.
"""

from __future__ import annotations

from typing import Literal, cast

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue

Button = Literal["left", "middle", "right"]


async def browser_mouse_down(call: CallContext, args: JsonObject) -> JsonValue:
    await call.tab.page.mouse.down(button=cast(Button, args.get("button", "left")))
    return await page_feedback(call.session)


async def browser_mouse_up(call: CallContext, args: JsonObject) -> JsonValue:
    await call.tab.page.mouse.up(button=cast(Button, args.get("button", "left")))
    return await page_feedback(call.session)

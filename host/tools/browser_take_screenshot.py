"""`browser_take_screenshot`: Take a PNG screenshot of the viewport, the full page or one element; returns it as
an image.

Described by `browser_take_screenshot.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

import base64

from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.results import Image
from host.targets import locate


async def browser_take_screenshot(call: CallContext, args: JsonObject) -> JsonValue:
    target = args.get("target")
    if isinstance(target, str):
        data = await (await locate(call.tab, target)).screenshot(type="png")
    else:
        data = await call.tab.page.screenshot(type="png", full_page=bool(args.get("fullPage")))
    return Image(base64.b64encode(data).decode("ascii"))

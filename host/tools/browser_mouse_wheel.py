"""`browser_mouse_wheel` (capability `vision`): scroll the wheel where the mouse is.

Described by `browser_mouse_wheel.tool.yaml` beside this file (deltas bounded by its schema).
Playwright's `wheel` does not wait for the scroll; feedback follows once the page has handled
the event.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import cast

from playwright.async_api import Error as PlaywrightError

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue

_TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


async def browser_mouse_wheel(call: CallContext, args: JsonObject) -> JsonValue:
    dx = float(cast(float, args.get("deltaX", 0)))
    dy = float(cast(float, args.get("deltaY", 0)))
    page = call.tab.page
    await page.mouse.wheel(dx, dy)
    # Two animation frames: the scroll is applied before the answer, so a read right after sees
    # the moved page. Skipped while a dialog blocks the page (no frame runs), and never longer
    # than a second.
    if call.session.blocking_dialog() is None:
        with contextlib.suppress(PlaywrightError, TimeoutError):
            async with asyncio.timeout(1.0):
                await page.evaluate(_TWO_FRAMES)
    return await page_feedback(call.session)

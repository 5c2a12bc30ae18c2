"""`browser_press_key`: press one key or combination on the current tab (@playwright/mcp's tool).

Described by `browser_press_key.tool.yaml` beside this file. A key Playwright does not know
fails with `unknown_key`, naming it, before anything is pressed.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_press_key(call: CallContext, args: JsonObject) -> JsonValue:
    key = str(args["key"])
    try:
        await call.tab.page.keyboard.press(key)
    except PlaywrightError as error:
        if "Unknown key" not in str(error):
            raise
        raise HostError(
            "unknown_key",
            f"Playwright knows no key {key!r}; use a key name (Enter, Escape, ArrowDown, F5), "
            "a single character, or a combination (Control+a, Shift+Tab)",
            path="key",
        ) from None
    return await page_feedback(call.session)

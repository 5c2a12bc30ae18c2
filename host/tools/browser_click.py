"""`browser_click`: Click an element.

Described by `browser_click.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from typing import cast

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue

_OPENS_TAB = """e => { const a = e.closest('a[href]');
  return !!a && !!a.target && !['_self', '_parent', '_top'].includes(a.target) }"""


async def _opens_tab(locator: Locator) -> bool:
    """Whether the element is (in) a link into a new tab. This check is what waits for the
    element, so its failure is the click's: Playwright's message names the method that ran
    (`Locator.evaluate: Timeout ...`), which a caller who asked for a click would not recognise;
    the same error is raised naming `Locator.click`."""
    try:
        return bool(await locator.evaluate(_OPENS_TAB))
    except PlaywrightError as error:
        if not error.message.startswith(_CHECK):
            raise
        raise type(error)(_CLICK + error.message.removeprefix(_CHECK)) from None


_CHECK, _CLICK = "Locator.evaluate:", "Locator.click:"


async def browser_click(call: CallContext, args: JsonObject) -> JsonValue:
    locator = await locate(call.tab, str(args["target"]))
    modifiers = cast(list[str], args.get("modifiers") or [])
    button = str(args.get("button", "left"))
    if args.get("double"):
        await locator.dblclick(button=button, modifiers=modifiers)  # type: ignore[arg-type]
    elif await _opens_tab(locator):
        # A link into a new tab: report the tab in this result, not one call later.
        async with call.session.context.expect_page() as opened:
            await locator.click(button=button, modifiers=modifiers)  # type: ignore[arg-type]
        call.session._adopt(await opened.value)
    else:
        await locator.click(button=button, modifiers=modifiers)  # type: ignore[arg-type]
    return await page_feedback(call.session)

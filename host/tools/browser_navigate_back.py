"""`browser_navigate_back`: go back in the current tab's history (@playwright/mcp's tool).

Described by `browser_navigate_back.tool.yaml` beside this file. Where the page lands is checked
by the host's navigation policy after the call, as for every navigation.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_navigate_back(call: CallContext, args: JsonObject) -> JsonValue:
    page = call.tab.page
    before = page.url
    # `go_back` answers None both with no history and for a same-document move (a hash or
    # pushState entry), so only "the URL did not change" says there was nowhere to go.
    # As @playwright/mcp (its issue 1635): on once the page is back and parsed, never blocked by
    # a `load` that does not come (an image that hangs).
    response = await page.go_back(wait_until="domcontentloaded")
    if response is None and page.url == before:
        return await page_feedback(call.session, {"note": "no previous page in this tab"})
    return await page_feedback(call.session)

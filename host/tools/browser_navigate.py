"""`browser_navigate`: Open a URL in the current tab, or go back, forward or reload.

Described by `browser_navigate.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.feedback import page_feedback
from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext


async def browser_navigate(call: CallContext, args: JsonObject) -> JsonValue:
    url = str(args["url"])
    page = call.tab.page
    wait = str(args.get("waitUntil", "load"))
    if url == "back":
        await page.go_back(wait_until=wait)  # type: ignore[arg-type]
    elif url == "forward":
        await page.go_forward(wait_until=wait)  # type: ignore[arg-type]
    elif url == "reload":
        await page.reload(wait_until=wait)  # type: ignore[arg-type]
    else:
        response = await page.goto(url, wait_until=wait)  # type: ignore[arg-type]
        if response is not None and response.status >= 400:
            return await page_feedback(call.session, {"status": response.status})
    return await page_feedback(call.session)

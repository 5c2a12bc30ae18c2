"""`browser_navigate`: Open a URL in the current tab, or go back, forward or reload.

Described by `browser_navigate.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

import contextlib

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Response

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.settle import loaded_within
from host.shared.jsontypes import JsonObject, JsonValue

_ERROR_PAGE_WAIT_MS = 2000


async def _goto(page: Page, url: str, wait: str) -> Response | None:
    """`page.goto`; when the navigation fails at the network (a blocked origin, offline, a name
    not resolved), Chromium commits its error page a moment after goto has failed, and that late
    commit would interrupt the session's next navigation ("interrupted by another navigation to
    chrome-error://"). So the failure is answered once the error page is in (at most 2 s)."""
    try:
        return await page.goto(url, wait_until=wait)  # type: ignore[arg-type]
    except PlaywrightError as error:
        if "net::ERR_" in error.message and "net::ERR_ABORTED" not in error.message:
            # No error page in time (or the page went elsewhere): the failure stands as it is.
            with contextlib.suppress(PlaywrightError):
                await page.wait_for_url(
                    lambda now: now.startswith("chrome-error://"),
                    wait_until="commit",
                    timeout=_ERROR_PAGE_WAIT_MS,
                )
        raise


async def browser_navigate(call: CallContext, args: JsonObject) -> JsonValue:
    url = str(args["url"])
    page = call.tab.page
    if call.session.watch is not None:  # it waits for its own document below, not once more
        call.session.watch.waited()
    if url == "":  # as @playwright/mcp's: nothing to open, the page stays where it is
        return await page_feedback(call.session, {"note": "no URL given; the page stays"})
    # Without waitUntil, as @playwright/mcp: on once the document is parsed, then `load` for at
    # most LOAD_WAIT_S, so a page whose image or script never arrives does not time the call out.
    wait = str(args.get("waitUntil", "domcontentloaded"))
    response = None
    if url == "back":
        await page.go_back(wait_until=wait)  # type: ignore[arg-type]
    elif url == "forward":
        await page.go_forward(wait_until=wait)  # type: ignore[arg-type]
    elif url == "reload":
        await page.reload(wait_until=wait)  # type: ignore[arg-type]
    else:
        try:
            response = await _goto(page, url, wait)
        except PlaywrightError as error:
            if "Download is starting" not in error.message:
                raise
            # The URL is served as an attachment: the page stays where it was and the file is
            # the answer (as @playwright/mcp reports it), not Playwright's error.
            saved = await call.session.take_download(3.0, call.config.download_wait)
            if saved is None:  # still running: the session notes it when it ends
                saved = {"event": "download_running", "detail": "reported when done"}
            return await page_feedback(call.session, {"download": saved})
    if "waitUntil" not in args:
        await loaded_within(page)
    if response is not None and response.status >= 400:
        return await page_feedback(call.session, {"status": response.status})
    return await page_feedback(call.session)

"""Stopping what a call left running in a tab, through the tab's DevTools session, and telling a
tab that is gone from one that is only busy.

Guarantees: `stop_scripts` ends the script running in the page now (the page runs its next task
as usual; a runaway regular expression, a snapshot of a huge page, a loop); `stop_navigation`
ends a pending navigation as the browser's Stop button does, so the tab stays on the document it
showed; both are answered by the browser process, so they work while the page's main thread is
busy, and both do nothing on an engine without a DevTools session. `is_gone` answers on evidence
only (the page's `close` or `crash` event, `page.is_closed()`): a timeout is never evidence, since
a page busy in a long script or held by a navigation that hangs does not answer either.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from host.sessions.session import Session
from host.sessions.tab import Tab

log = logging.getLogger(__name__)

STOP_PATIENCE_S = 5.0
"""How long the browser may take to confirm a stop (a call's answer waits for it): terminating a
script inside a long task of Playwright's (a snapshot of 50,000 elements) was seen to take 4 s on
a busy machine. A stop the browser has not confirmed still takes effect when it gets to it."""


def is_gone(session: Session, tab: Tab) -> bool:
    """Whether `tab` is gone: closed (its `close` event removed it, or Playwright says so) or
    crashed. Never decided by a page that does not answer in time."""
    return tab not in session.tabs or tab.crashed or tab.page.is_closed()


async def stop_scripts(tab: Tab) -> bool:
    """Stop the script running in `tab`'s page (DevTools `Runtime.terminateExecution`); False
    when there is no DevTools session or the browser did not confirm."""
    if tab.cdp is None:
        return False
    try:
        async with asyncio.timeout(STOP_PATIENCE_S):
            await tab.cdp.send("Runtime.terminateExecution")
    except Exception:
        log.debug("stopping the page's script failed", exc_info=True)
        return False
    return True


async def stop_navigation(tab: Tab) -> bool:
    """Stop a navigation still pending in `tab` (DevTools `Page.stopLoading`): while one is
    pending, Chromium holds every command for the page until it commits, so a server that never
    answers would hold the tab for good. False when there is no DevTools session."""
    if tab.cdp is None:
        return False
    with contextlib.suppress(Exception):
        async with asyncio.timeout(STOP_PATIENCE_S):
            await tab.cdp.send("Page.stopLoading")
            return True
    return False

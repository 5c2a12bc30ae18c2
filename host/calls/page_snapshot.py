"""A page's (or a part's) accessibility snapshot within the action timeout, the one way the host's
tools and an action's feedback take one.

Guarantees: the snapshot is answered within the action timeout, or `timeout` says it was not and
that the tab is where it was. Playwright's snapshot is one script in the page whose cost grows
faster than the page (16,000 elements: 25 s; 50,000: minutes), and Playwright's own timeout
leaves it running there, holding the page's main thread for every later call; so past the
timeout that script is stopped (host/sessions/tab_control.py) and the tab answers the next call.
A slow page is never taken for a gone one: the tab is not replaced.
"""

from __future__ import annotations

import asyncio

from playwright.async_api import Locator
from playwright.async_api import TimeoutError as PlaywrightTimeout

from host.sessions.tab import Tab
from host.sessions.tab_control import stop_scripts
from host.shared.errors import HostError

# Past Playwright's own timeout, how long the host waits before it stops waiting itself.
_BACKSTOP_S = 2.0


async def snapshot_within(
    tab: Tab, timeout_s: float, part: Locator | None = None, **options: object
) -> str:
    """The snapshot of `part` (the whole page by default) with Playwright's `options` (`mode`,
    `depth`, `boxes`); HostError `timeout` past `timeout_s`."""
    source = tab.page if part is None else part
    try:
        async with asyncio.timeout(timeout_s + _BACKSTOP_S):
            return await source.aria_snapshot(timeout=timeout_s * 1000, **options)  # type: ignore[arg-type]
    except (PlaywrightTimeout, TimeoutError):
        stopped = await stop_scripts(tab)
        why = (
            "a page of tens of thousands of elements takes minutes"
            if part is None
            else "no element matches it, or it holds tens of thousands"
        )
        raise HostError(
            "timeout",
            f"{'the page' if part is None else 'the target'} did not give its snapshot within "
            f"{timeout_s:g} s ({why})"
            + ("; the snapshot was stopped in the page" if stopped else "")
            + " and the tab is where it was; pass a target (a ref or a selector of a part) or "
            "a depth for a smaller snapshot",
        ) from None

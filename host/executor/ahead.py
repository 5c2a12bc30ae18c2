"""Element counts of an action's selectors, taken together as soon as its page has loaded.

Before a step acts, the runner counts what its selector matches (one element: act; none or
several: drift). Counted one by one through the host, those counts are a round trip to the page
each, in series, since a tool call holds its session: four of them for a three-field form. Taken
here, at once and concurrently, they cost about one. They are read straight from Playwright:
they only read, and they only ever let a step skip its own count.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from playwright.async_api import Page


class CountsAhead:
    """Which selectors matched exactly one element when the page was first counted.

    Guarantees: `single` is true for a selector at most once (the first step that uses it), and
    only if Playwright counted exactly one element for it in `take`; a selector the page could
    not count (invalid, the page going away, no answer within the time given) is never single,
    so its step counts it itself. `take` never raises for what the page or the browser did.
    """

    def __init__(self) -> None:
        self._single: set[str] = set()

    async def take(self, page: Page, selectors: Iterable[str], timeout_s: float) -> None:
        unique = list(dict.fromkeys(selectors))

        async def count(selector: str) -> int | None:
            try:
                return await page.locator(selector).count()
            except Exception:  # the step's own count, through the host, says what went wrong
                return None

        try:
            async with asyncio.timeout(timeout_s):
                # Through Playwright, whose selector engine runs in its own world: a count made
                # with the page's `querySelectorAll` is the page's to fake (and a page that
                # watches its own searches sees one before the action's first attempt).
                counts = await asyncio.gather(*(count(s) for s in unique))
        except TimeoutError:
            return
        self._single = {s for s, n in zip(unique, counts, strict=True) if n == 1}

    def single(self, selector: str) -> bool:
        """Whether `selector` matched one element when counted ahead (asked once per selector)."""
        if selector in self._single:
            self._single.discard(selector)
            return True
        return False

"""What an action set off: the requests, navigation, tabs and downloads that follow a click, a
key press or a navigation, waited for briefly so that its own result reports them.

@playwright/mcp does the same (its `waitForCompletion`): listen to requests while the action
runs, wait a settle time (500 ms) after it, then wait for a navigation it started to load (at
most 10 s) or for the requests it started to finish (at most 5 s) and settle once more. Without
it a dialog or a navigation that a page starts 100 ms after a click is missed, and the result
names the old URL.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from playwright.async_api import Page, Request, Response

from host.shared.jsontypes import JsonValue

if TYPE_CHECKING:  # the session holds a watch; the watch only reads the session
    from host.sessions.session import Session, Watch

MAX_WATCHED = 200
"""Requests one action's watch follows (a page that sends more is not waited for past these)."""
MAX_REPORTED = 10
"""Requests one result lists; the rest are counted."""
REQUEST_WAIT_S = 5.0
NAVIGATION_WAIT_S = 10.0
LOAD_WAIT_S = 5.0
"""How long a navigation a caller asked for waits for `load` once its document is parsed, as
@playwright/mcp's navigate (a page whose image never arrives is usable, and is reported)."""
_REPORTED_TYPES = frozenset({"fetch", "xhr"})


class ActionWatch:
    """Follows one action of a session from before it starts until its result is made.

    Guarantees: `settle` waits at most `settle_s` + 10 s + `settle_s` (less when the call's own
    deadline is nearer), returns at once while a dialog blocks the current tab, and runs once per
    action (a second call returns at once); `report` lists at most MAX_REPORTED of the fetch/XHR
    requests and main-frame navigations the action started, each with its status or failure.
    `stop` removes every listener it added.
    """

    def __init__(self, session: Session, settle_s: float, deadline: float) -> None:
        self.session = session
        self.settle_s = settle_s
        self.deadline = deadline
        self.requests: list[Request] = []
        self.overflow = 0
        self.status: dict[Request, str] = {}
        self._done: dict[Request, asyncio.Event] = {}
        self.pages: list[Page] = []
        self.settled = False
        self.load_limit = NAVIGATION_WAIT_S
        """How long `settle` waits for a navigation's load; a tool that already waited for its
        own navigation's load (`loaded_within`) sets it to 0, so a page that never loads is not
        waited for twice."""
        context = session.context
        context.on("request", self._on_request)
        context.on("response", self._on_response)
        context.on("requestfinished", self._on_finished)
        context.on("requestfailed", self._on_failed)
        context.on("page", self._on_page)

    def stop(self) -> None:
        context = self.session.context
        for event, handler in (
            ("request", self._on_request),
            ("response", self._on_response),
            ("requestfinished", self._on_finished),
            ("requestfailed", self._on_failed),
            ("page", self._on_page),
        ):
            with contextlib.suppress(Exception):
                context.remove_listener(event, handler)

    # -- listeners ---------------------------------------------------------------------------

    def _on_request(self, request: Request) -> None:
        if len(self.requests) >= MAX_WATCHED:
            self.overflow += 1
            return
        self.requests.append(request)
        self._done[request] = asyncio.Event()

    def _on_response(self, response: Response) -> None:
        if response.request in self._done:
            self.status[response.request] = str(response.status)

    def _on_finished(self, request: Request) -> None:
        done = self._done.get(request)
        if done is not None:
            done.set()

    def _on_failed(self, request: Request) -> None:
        done = self._done.get(request)
        if done is not None:
            self.status[request] = f"failed {request.failure or ''}".strip()
            done.set()

    def _on_page(self, page: Page) -> None:
        self.pages.append(page)

    # -- after the action --------------------------------------------------------------------

    def _left(self) -> float:
        """Seconds this settle may still take: the call's deadline, less a margin to answer."""
        return self.deadline - asyncio.get_running_loop().time() - 2.0

    async def _pause(self, seconds: float) -> None:
        seconds = min(seconds, self._left())
        if seconds > 0:
            await asyncio.sleep(seconds)

    async def _wait(self, events: list[asyncio.Event], limit: float) -> None:
        limit = min(limit, self._left())
        pending = [asyncio.ensure_future(e.wait()) for e in events if not e.is_set()]
        if not pending:
            return
        try:
            if limit > 0:
                await asyncio.wait(pending, timeout=limit)
        finally:
            for task in pending:
                task.cancel()

    def _navigations(self) -> list[Request]:
        found = []
        for request in self.requests:
            with contextlib.suppress(Exception):  # a service worker's request has no frame
                if request.is_navigation_request() and request.frame.parent_frame is None:
                    found.append(request)
        return found

    def skip(self) -> None:
        """The call only read the page (one tool with reading and acting forms, `webBrowser`):
        its feedback does not wait, and reports no requests."""
        self.settled = True
        self.requests.clear()

    async def settle(self) -> None:
        """Wait for what the action set off, as @playwright/mcp does (see the module)."""
        if self.settled or self.settle_s <= 0:
            self.settled = True
            return
        self.settled = True
        if self.session.blocking_dialog() is not None:
            return
        await self._pause(self.settle_s)
        navigations = self._navigations()
        if navigations:
            await self._wait([self._done[r] for r in navigations], NAVIGATION_WAIT_S)
            pages = {id(r.frame.page): r.frame.page for r in navigations}
            pages.update({id(p): p for p in self.pages})
            limit = min(self.load_limit, self._left())
            if limit > 0 and self.session.blocking_dialog() is None:
                await asyncio.gather(
                    *(_loaded(page, limit) for page in pages.values()), return_exceptions=True
                )
        elif self.requests:
            await self._wait(list(self._done.values()), REQUEST_WAIT_S)
            if self.session.blocking_dialog() is None:
                await self._pause(self.settle_s)
        self._update_tab_notes()

    def _update_tab_notes(self) -> None:
        """A tab the action opened is noted when it opens, still blank: name where it went."""
        for tab in self.session.tabs:
            note = tab.opened_note
            if note is not None and tab.page in self.pages:
                note["url"] = tab.page.url

    def report(self) -> list[JsonValue]:
        """The fetch/XHR requests and main-frame navigations the action started, in order:
        `METHOD URL STATUS` (or `failed REASON`, or `pending`)."""
        navigations = set(self._navigations())
        lines: list[JsonValue] = []
        shown = [r for r in self.requests if r in navigations or r.resource_type in _REPORTED_TYPES]
        for request in shown[:MAX_REPORTED]:
            url = request.url if len(request.url) <= 200 else request.url[:200] + "..."
            lines.append(f"{request.method} {url} {self.status.get(request, 'pending')}")
        more = len(shown) - MAX_REPORTED + (self.overflow if shown else 0)
        if more > 0:
            lines.append(f"... {more} more (browser_network_requests lists them)")
        return lines


async def _loaded(page: Page, limit: float) -> None:
    with contextlib.suppress(Exception):  # closed, or still loading at the limit: report as is
        await page.wait_for_load_state("load", timeout=limit * 1000)


async def loaded_within(page: Page, watch: Watch | None, limit: float = LOAD_WAIT_S) -> None:
    """Wait up to `limit` seconds for `page`'s `load` (then go on: the page is parsed and usable),
    and tell the call's `watch`, if any, that this navigation's load was waited for."""
    await _loaded(page, limit)
    if watch is not None:
        watch.load_limit = 0.0

"""What an action set off: the requests, navigation, tabs, dialogs and downloads that follow a
click, a key press or a submit, waited for only while there is evidence of them, so that the
action's own result reports them.

@playwright/mcp (its `waitForCompletion`) sleeps a fixed settle time (500 ms) after every action
that may set something off, then waits for a navigation it started to load (at most 10 s) or
for its requests (at most 5 s) and sleeps once more. This waits on evidence instead: after the
action it waits only while something the action set off is still pending, and answers as soon
as nothing is, after a short grace (`GRACE_S`) and a second look:

- a timer, animation frame, `fetch`/XHR or posted message the page started while it handled
  the action's input events (`pending_work`: an init script in every frame notes them), when
  the timer is due within `settle_s` of the action's end (a timer due later is not waited for,
  as the peer's sleep would not have; one due in time but late to run, on a busy page, is
  waited for up to `LATE_TIMER_S` more);
- a request started since the action began (at most `REQUEST_WAIT_S`), a main-frame navigation
  (at most `NAVIGATION_WAIT_S`, then its `load`, as before), a tab it opened that has not gone
  anywhere yet (until `settle_s`), a navigation or download the page announced (the Navigation
  API's `navigate` event) that has not reached the network yet (`NAV_START_WAIT_S`);
- a dialog ends the wait at once.

Where the script cannot run (no `pending_work` in a frame) the old fixed wait of `settle_s`
comes first. `settle_s` (`--timeout-settle`) stays the upper bound of waiting on timers; 0 turns
the settle off. Tools that wait for their own document (navigate, back, reload) or only type
or read do not settle (`waited`, `skip`).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from playwright.async_api import Page, Request, Response

from host.sessions.pending_work import Pending, probe
from host.shared.jsontypes import JsonValue

if TYPE_CHECKING:  # the session holds a watch; the watch only reads the session
    from host.sessions.session import Session

MAX_WATCHED = 200
"""Requests one action's watch follows (a page that sends more is not waited for past these)."""
MAX_REPORTED = 10
"""Requests one result lists; the rest are counted."""
REQUEST_WAIT_S = 5.0
NAVIGATION_WAIT_S = 10.0
GRACE_S = 0.02
"""Once nothing is pending, how long the settle looks away before it looks once more (work the
event loop still had queued: a request the browser had not yet told about, a message task)."""
POLL_S = 0.05
"""The longest sleep between two looks while something is pending."""
LATE_TIMER_S = 2.0
"""How long past the settle time a noted timer that was due in time, but has not run (a busy
page), is still waited for."""
NAV_START_WAIT_S = 2.0
"""How long a navigation or download the page announced is waited for to reach the network."""
MAX_PROBED_FRAMES = 50
"""Frames of the tab read per look (the first ones, main frame first)."""
LOAD_WAIT_S = 5.0
"""How long a navigation a caller asked for waits for `load` once its document is parsed, as
@playwright/mcp's navigate (a page whose image never arrives is usable, and is reported)."""
_REPORTED_TYPES = frozenset({"fetch", "xhr"})
_FINISHED_TYPES = frozenset({"document", "stylesheet", "script", "xhr", "fetch"})
"""Requests waited for until their body is in (as the peer); any other (an image, an event
stream that never ends) only until its response headers."""


class ActionWatch:
    """Follows one action of a session from before it starts until its result is made.

    Guarantees: `settle` waits only while something the action set off is pending (see the
    module), never past `settle_s` + `LATE_TIMER_S` for timers, `REQUEST_WAIT_S` for requests,
    `NAVIGATION_WAIT_S` for a navigation plus as much for its `load`, nor past the call's own
    deadline; it returns at once while a dialog blocks the current tab and runs once per action
    (a second call returns at once); `report` lists at most MAX_REPORTED of the fetch/XHR
    requests and main-frame navigations the action started, each with its status or failure.
    `stop` removes every listener it added.
    """

    def __init__(
        self, session: Session, settle_s: float, deadline: float, *, listen: bool = True
    ) -> None:
        self.session = session
        self.settle_s = settle_s
        self.deadline = deadline
        self.started = asyncio.get_running_loop().time()
        self.requests: list[Request] = []
        self.overflow = 0
        self.status: dict[Request, str] = {}
        self._done: dict[Request, asyncio.Event] = {}
        self.pages: list[Page] = []
        self.settled = False
        self.fell_back = False
        """True once a settle found a frame the pending-work script could not run in, and
        waited the fixed settle time instead (tests read it)."""
        self._downloads_before = session.downloads_started
        self.listening = listen
        """Whether it follows the context's requests and tabs (each listener is a subscription
        Playwright turns on and off): an agent's action lists its requests; the executor's
        submit, which reads the page back itself, settles on the page's evidence alone."""
        if not listen:
            return
        context = session.context
        context.on("request", self._on_request)
        context.on("response", self._on_response)
        context.on("requestfinished", self._on_finished)
        context.on("requestfailed", self._on_failed)
        context.on("page", self._on_page)

    def stop(self) -> None:
        if not self.listening:
            return
        self.listening = False
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
        request = response.request
        if request in self._done:
            self.status[request] = str(response.status)
            if request.resource_type not in _FINISHED_TYPES:  # an image, a stream: headers do
                self._done[request].set()

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

    def _blocked(self) -> bool:
        return self.session.blocking_dialog() is not None or self._left() <= 0

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
        """The call only read the page or typed (a tool with reading and acting forms,
        `webBrowser`; `browser_type` without `submit`): no wait, and no requests reported."""
        self.settled = True
        self.stop()
        self.requests.clear()

    def waited(self) -> None:
        """The tool waited for what it set off itself (navigate, back, reload: their own
        document): no settle, and its requests are still reported."""
        self.settled = True

    async def settle(self) -> None:
        """Wait for what the action set off while there is evidence of it (see the module)."""
        if self.settled or self.settle_s <= 0:
            self.settled = True
            return
        self.settled = True
        if self.session.blocking_dialog() is not None:
            return
        loop = asyncio.get_running_loop()
        start = loop.time()
        horizon = start + self.settle_s
        announced: float | None = None  # when a navigation the page announced was first seen
        # Looks in a row that found nothing pending, a grace apart: the first look comes after
        # a grace (what the action queued reaches the host meanwhile), so it counts as one.
        await asyncio.sleep(GRACE_S)
        quiet = 1
        probing = True
        requests_seen = False
        answered_before = 0
        while not self._blocked():
            if self._navigations():
                await self._follow_navigations()
                break
            now = loop.time()
            if self._host_pending(now, start, horizon):
                quiet, requests_seen = 0, True
                await self._wait([e for e in self._done.values() if not e.is_set()], POLL_S)
                if all(e.is_set() for e in self._done.values()):
                    await asyncio.sleep(GRACE_S)
                continue
            answered = sum(1 for e in self._done.values() if e.is_set())
            if requests_seen or answered > answered_before:
                # As the peer's second settle: what the requests' answers start is waited for
                # within the settle time from their end, not only from the action's.
                horizon, requests_seen = max(horizon, now + self.settle_s), False
                answered_before = answered
            found = await self._probe(horizon) if probing else []
            if found is None:  # a frame without the script: the fixed wait, then the rest
                self.fell_back = True
                probing = False
                await self._pause_until(horizon)
                continue
            if isinstance(found, str):  # "unanswered": look again
                quiet = 0
                continue
            now = loop.time()
            wait = self._page_pending(found, now, start, horizon)
            if any(work.fetches for work in found):
                requests_seen = True
            if wait is None and self._announced(found, now):
                announced = now if announced is None else announced
                if now < announced + NAV_START_WAIT_S:
                    wait = POLL_S
            if wait is not None:
                quiet = 0
                await asyncio.sleep(wait)
                continue
            quiet += 1
            if quiet >= 2:
                break
            await asyncio.sleep(GRACE_S)
        self._update_tab_notes()

    def _host_pending(self, now: float, start: float, horizon: float) -> bool:
        """A request the action started is still open (for at most REQUEST_WAIT_S), or a tab it
        opened has not gone anywhere yet (until the settle time)."""
        if now < start + REQUEST_WAIT_S and any(not e.is_set() for e in self._done.values()):
            return True
        return now < horizon and any(
            p.url == "about:blank" and not p.is_closed() for p in self.pages
        )

    def _page_pending(
        self, found: list[Pending], now: float, start: float, horizon: float
    ) -> float | None:
        """Seconds to sleep before the next look when the page has noted work pending, else None."""
        steps: list[float] = []
        for work in found:
            if work.timers and now < horizon + LATE_TIMER_S:
                steps.append(min(POLL_S, max(work.next_ms / 1000, 0.005)))
            if (work.frames or work.busy) and now < horizon:
                steps.append(0.01)
            if work.fetches and now < start + REQUEST_WAIT_S:
                steps.append(POLL_S)
        return min(steps) if steps else None

    def _announced(self, found: list[Pending], now: float) -> bool:
        """A frame started a navigation or a download during the action that has reached neither
        the network nor a download yet."""
        if self.session.downloads_started != self._downloads_before:
            return False
        since = (now - self.started) * 1000 + 50
        return any(0 <= work.nav_ago_ms <= since for work in found)

    async def _probe(self, horizon: float) -> list[Pending] | str | None:
        """Every frame's noted work (main frame first); None when a frame has no script;
        "unanswered" when the page did not answer within a look (a dialog, a navigation)."""
        tab = self.session.current
        if tab is None or tab.page.is_closed():
            return []
        loop = asyncio.get_running_loop()
        limit_ms = (horizon - loop.time()) * 1000
        frames = tab.page.frames[:MAX_PROBED_FRAMES]
        task = asyncio.ensure_future(
            asyncio.gather(*(probe(f, limit_ms) for f in frames), return_exceptions=True)
        )
        give_up = loop.time() + self.settle_s + LATE_TIMER_S
        while True:
            done, _ = await asyncio.wait({task}, timeout=POLL_S)
            if done:
                break
            if self._blocked() or self._navigations() or loop.time() > give_up:
                task.add_done_callback(_retrieve)
                return "unanswered" if not self._blocked() and self._navigations() else []
        found: list[Pending] = []
        for frame, answer in zip(frames, task.result(), strict=True):
            if isinstance(answer, Pending):
                found.append(answer)
            elif answer is None and not frame.is_detached():
                return None
            elif frame is tab.page.main_frame and horizon + LATE_TIMER_S > loop.time():
                # Its document was replaced while it answered (a navigation commits): look
                # again, at the new one, rather than take the silence for nothing pending.
                await asyncio.sleep(GRACE_S)
                return "unanswered"
        return found

    async def _pause_until(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        while not self._blocked() and not self._navigations():
            left = min(until - loop.time(), self._left())
            if left <= 0:
                return
            await asyncio.sleep(min(left, POLL_S))

    async def _follow_navigations(self) -> None:
        """A main-frame navigation the action started: wait for its document, then its load."""
        navigations = self._navigations()
        await self._wait([self._done[r] for r in navigations], NAVIGATION_WAIT_S)
        pages = {id(r.frame.page): r.frame.page for r in navigations}
        pages.update({id(p): p for p in self.pages})
        limit = min(NAVIGATION_WAIT_S, self._left())
        if limit > 0 and self.session.blocking_dialog() is None:
            await asyncio.gather(
                *(_loaded(page, limit) for page in pages.values()), return_exceptions=True
            )

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


def _retrieve(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def _loaded(page: Page, limit: float) -> None:
    with contextlib.suppress(Exception):  # closed, or still loading at the limit: report as is
        await page.wait_for_load_state("load", timeout=limit * 1000)


async def loaded_within(page: Page, limit: float = LOAD_WAIT_S) -> None:
    """Wait up to `limit` seconds for `page`'s `load`, then go on: the page is parsed and usable."""
    await _loaded(page, limit)

"""A session: one isolated BrowserContext with its tabs, current tab and event buffers.

The session is made of parts, each in its own module over `session_state.SessionState`:
`console_log`, `network_log`, `dialogs`, `downloads`, `routes`; this module makes a session,
closes it, and keeps its tabs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from playwright.async_api import BrowserContext, Page, Route

from host.sessions.console_log import ConsoleLog
from host.sessions.dialogs import Dialogs
from host.sessions.downloads import Downloads
from host.sessions.keys import SessionKey
from host.sessions.navigation import NavigationPolicy
from host.sessions.network_log import NetworkLog
from host.sessions.page_guards import console_limiter, lasting_workers_refused
from host.sessions.pending_work import PENDING_WORK_SCRIPT
from host.sessions.routes import Routes
from host.sessions.selfguard import SelfGuard
from host.sessions.session_files import save_trace, unguessable
from host.sessions.session_state import SessionState, clip
from host.sessions.tab import Tab
from host.sessions.worker_guard import guard_workers
from host.settings.browser_options import request_origin
from host.settings.config import HostConfig
from host.shared.jsontypes import JsonValue

log = logging.getLogger(__name__)


class Session(ConsoleLog, NetworkLog, Dialogs, Downloads, Routes, SessionState):
    """One caller's browser state, isolated from every other session's.

    Guarantees: the session owns exactly one BrowserContext (cookies, storage, pages, routes are
    its own); every page that opens in it (popups, `target=_blank`, `window.open`, new pages) joins
    `tabs` as soon as Playwright reports it, up to `max_tabs` (a page opened past it is closed at
    once, with a note), and `current` is always one of `tabs` while the session lives. Buffers
    (console, network, responses, dialogs, notes) are bounded by the config's `buffer_limit`;
    when a limit drops entries the count is reported. A page's console is limited in the page
    (`console_rate` a second per frame, the rest counted as dropped); a kind of event that still
    arrives faster than `event_flood` a second is not listened to for `flood_pause` seconds, and
    the session's tabs run `flood_slowdown` times slower meanwhile (a note says so). A frame that lands on a URL the navigation policy refuses is taken back to
    `about:blank` and the URL kept in `blocked_landing` for the running call to report. When the
    page itself closes its last tab, or the last tab crashes, a new blank tab takes its place and
    the next result says so; when a caller closes it (`closing_intent`), `ended` is set, as it is
    when the context closes or the browser goes away; an ended session runs no more calls.
    `lock` serialises the calls of one session.
    """

    holds_file_choosers = True
    """A file chooser a page opens is held for `browser_file_upload` (Playwright then intercepts
    every file chooser of the tab: a message to the driver and one to the page, per tab)."""

    attaches_tabs_at_open = True
    """Each tab gets its DevTools session as it opens, while its page is idle: the worker guard,
    and the way to stop a page's runaway script or pending navigation (one attached later could
    not stop a script already running). When false, a tab gets it only once Playwright reports a
    worker in it (the guard then pauses a worker already running to limit it), and a tab without
    a worker has no way to be stopped: for a session closed as soon as its calls end, two
    messages to the driver and a DevTools session less per tab."""

    answers_dialogs = True
    """Dialogs go to the session (its policy, an answer armed by `browser_handle_dialog`, or kept
    open); when false, Playwright's driver answers each itself as it opens (dismissed, a
    `beforeunload` accepted) and the session is sent none (two subscriptions less per session)."""

    def __init__(
        self,
        key: SessionKey,
        context: BrowserContext,
        generation: int,
        config: HostConfig,
        policy: NavigationPolicy | None = None,
    ) -> None:
        super().__init__(key, context, generation, config, policy)
        self._init_console(config)
        self._init_network(config)
        self._init_dialogs(config)
        self._init_routes(config)
        self._init_downloads(config)

    # -- creation and teardown -------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        key: SessionKey,
        context: BrowserContext,
        generation: int,
        config: HostConfig,
        guard: SelfGuard | None = None,
    ) -> Session:
        """A session on `context` (made for it by the browser pool), with its listeners, guards
        and first tab; the context is closed if that fails."""
        session = cls(key, context, generation, config)
        context.set_default_timeout(config.action_timeout * 1000)
        context.set_default_navigation_timeout(config.navigation_timeout * 1000)
        context.on("page", session._adopt)
        context.on("close", lambda _: session._end("the browser context was closed"))
        if cls.answers_dialogs:
            context.on("dialog", session._on_dialog)
            context.on("dialogclosed", session._on_dialog_closed)
        if config.page_events:
            session._listen("console")
            session._listen("pageerror")
            session._listen("network")
        try:
            # The host's own scripts in one call (each is a message to the driver, per session):
            # the console limit, the lasting workers refused, and the evidence an action's
            # settle waits on (host/sessions/pending_work.py).
            own = [console_limiter(config.console_rate), lasting_workers_refused()]
            if config.settle_timeout > 0:
                own.append(PENDING_WORK_SCRIPT)
            # One script failing (a page's frozen global) must not keep the others out.
            await context.add_init_script(
                "\n".join(f"try {{\n{js}\n}} catch (e) {{}}" for js in own)
            )
            for script in config.browser.init_scripts:
                await context.add_init_script(script.source)
            if guard is not None:
                await guard.install(context, session._on_self_request)
            if config.browser.filters_origins:
                await context.route("**/*", session._filter_origin)
            if config.browser.save_trace:
                await context.tracing.start(screenshots=True, snapshots=True, sources=False)
            # A persistent profile's context comes with its first tab.
            page = context.pages[0] if context.pages else await context.new_page()
            session._adopt(page)
            session.current = session.tabs[0]
            session.notes.clear()  # the first tab is not news
            await session.tabs[0].attached()  # before the first call navigates it
        except BaseException:
            # Failed or cancelled (a session made ahead that no call will take): no session
            # owns the context, so it is closed here, and its tab closing opens no other.
            session.closing_intent = True
            with contextlib.suppress(Exception):
                async with asyncio.timeout(10):
                    await context.close()
            raise
        return session

    async def _filter_origin(self, route: Route) -> None:
        """`--blocked-origins` / `--browser-allowed-origins`: a request elsewhere is aborted and
        noted; one the options allow goes on to the next route (the self guard, the network)."""
        url = route.request.url
        if self.config.browser.allows_origin(request_origin(url)):
            await route.fallback()
            return
        self.note(
            {
                "event": "request_blocked",
                "url": clip(url, 200),
                "why": "the host's --blocked-origins / --browser-allowed-origins refuse its origin",
            }
        )
        await route.abort("blockedbyclient")

    def _on_self_request(self, url: str) -> None:
        self.note(
            {
                "event": "request_blocked",
                "url": clip(url, 200),
                "why": "pages may not reach the host's own endpoints",
            }
        )

    async def close(self) -> None:
        """Close the context (and with it every tab); idempotent and bounded in time."""
        self._end("the session was closed")
        # Its tabs close with it: the last one must not open a new one (a page, a renderer
        # process) in a context about to close, as a tab the page closed itself would.
        self.closing_intent = True
        for task in list(self._background | self._repairs):
            task.cancel()
        for waiter in self._response_waiters:
            if not waiter.future.done():
                waiter.future.cancel()
        if self.config.browser.save_trace:
            await self._save_trace()
        try:
            async with asyncio.timeout(10):
                await self.context.close()
        except Exception:  # the browser may be gone already, or too busy to answer
            log.debug("closing a context failed", exc_info=True)

    async def _save_trace(self) -> None:
        """`--save-trace`: the session's trace, to its folder's `traces/trace-<time>-<random>.zip`."""
        try:
            async with asyncio.timeout(30):
                path = await save_trace(self.context, self.files, unguessable("trace") + ".zip")
            log.info("saved a trace to %s", path)
        except Exception as error:  # the browser may be gone: then there is nothing to save
            log.warning("the session's trace could not be saved: %s", error)

    # -- tabs ------------------------------------------------------------------------------

    def _adopt(self, page: Page) -> None:
        if self.index_of(page) is not None:
            return
        if len(self.tabs) >= self.config.max_tabs:
            self.note(
                {
                    "event": "tab_refused",
                    "detail": f"a page opened a tab past the session's limit of "
                    f"{self.config.max_tabs}; it was closed",
                }
            )
            self._spawn(_close_quietly(page))
            return
        tab = Tab(page)
        self.tabs.append(tab)
        page.on("close", self._on_page_close)
        page.on("crash", self._on_crash)
        page.on("framenavigated", lambda frame: self._on_navigated(tab, frame))
        page.on("download", self._on_download)
        if self.holds_file_choosers:
            page.on("filechooser", lambda chooser: setattr(tab, "file_chooser", chooser))
        if self.attaches_tabs_at_open:
            tab.attaching = self._spawn(self._attach(tab))
        else:
            page.on("worker", lambda _worker: self._attach_once(tab))
        if self.current is None:
            self.current = tab
        else:
            tab.opened_note = {"event": "tab_opened", "index": len(self.tabs) - 1, "url": page.url}
            self.note(tab.opened_note)

    def _attach_once(self, tab: Tab) -> None:
        """The tab's DevTools session, unless it has one or is getting it."""
        if tab.attaching is None and tab in self.tabs:
            tab.attaching = self._spawn(self._attach(tab))

    async def _attach(self, tab: Tab) -> None:
        """A DevTools session for the tab, attached while its page is idle (Chromium only)."""
        try:
            tab.cdp = await self.context.new_cdp_session(tab.page)
        except Exception:
            tab.cdp = None  # another engine, or the page closed first
            return
        try:
            await guard_workers(tab.cdp, console_limiter(self.config.console_rate))
            if self.user_agent is not None:
                await tab.cdp.send("Emulation.setUserAgentOverride", {"userAgent": self.user_agent})
        except Exception:
            log.debug("the tab closed before its workers could be guarded", exc_info=True)

    def _on_navigated(self, tab: Tab, frame: Any) -> None:
        if frame is tab.page.main_frame:
            tab.refs.clear()
        url = frame.url
        if not self.policy.landed_ok(url):
            self.blocked_landing = url
            self._spawn(self.take_away(tab), repair=True)

    def blocked_frames(self) -> list[tuple[Tab, str]]:
        """The tabs some frame of which shows a URL the policy refuses, with that URL."""
        found = []
        for tab in list(self.tabs):
            if tab.crashed:
                continue
            for frame in tab.page.frames:
                if not self.policy.landed_ok(frame.url):
                    found.append((tab, frame.url))
                    break
        return found

    async def take_away(self, tab: Tab) -> None:
        """Take a tab away from a refused URL: its page goes to about:blank (or, if it cannot,
        the tab is replaced by a new blank one)."""
        try:
            async with asyncio.timeout(5):
                await tab.page.goto("about:blank")
            tab.refs.clear()
            if not any(not self.policy.landed_ok(f.url) for f in tab.page.frames):
                return
        except Exception:
            log.debug("taking a tab to about:blank failed", exc_info=True)
        if tab in self.tabs and not tab.crashed:
            tab.crashed = True  # replaced like a crashed tab
            await self._replace(tab, event="tab_replaced")

    def _on_page_close(self, page: Page) -> None:
        index = self.index_of(page)
        if index is None:
            return
        tab = self.tabs.pop(index)
        self.open_dialogs = [d for d in self.open_dialogs if d.page is not page]
        if tab is self.current:
            self.current = self.tabs[max(0, index - 1)] if self.tabs else None
            if self.current is not None and not self.closing_intent and not tab.crashed:
                # The caller did not close it: the next call acts on another tab, and says so.
                self.note(
                    {
                        "event": "tab_closed_by_page",
                        "detail": "the current tab closed itself; calls now act on tab "
                        f"{self.tabs.index(self.current)} ({clip(self.current.page.url, 200)})",
                    }
                )
        if self.tabs or tab.crashed:
            return
        if self.closing_intent:
            self._end("the last tab was closed")
        else:
            self._spawn(self._reopen(), repair=True)

    async def _reopen(self) -> None:
        """The page closed its own last tab: a new blank one takes its place."""
        try:
            async with asyncio.timeout(10):
                page = await self.context.new_page()
        except Exception:
            self._end("the page closed its last tab and no new tab could be opened")
            return
        self._adopt(page)
        self.notes = [
            n for n in self.notes if not (isinstance(n, dict) and n.get("event") == "tab_opened")
        ]
        self.current = self.tabs[-1] if self.tabs else None
        self.note(
            {
                "event": "tab_closed_by_page",
                "detail": "the page closed its own last tab; a new blank tab took its place",
            }
        )

    def _on_crash(self, page: Page) -> None:
        index = self.index_of(page)
        if index is not None:
            self.mark_crashed(self.tabs[index])

    def mark_crashed(self, tab: Tab) -> None:
        """Replace a crashed tab by a new blank one at the same index (once)."""
        if tab.crashed or tab not in self.tabs:
            return
        tab.crashed = True
        self._spawn(self._replace(tab), repair=True)

    async def _replace(self, tab: Tab, event: str = "tab_crashed") -> None:
        try:
            async with asyncio.timeout(10):
                fresh = await self.context.new_page()
        except Exception:
            self._end(f"a tab had to be replaced ({event}) and no new tab could be opened")
            return
        self._adopt(fresh)
        fresh_tab = self.tabs.pop()  # adopted at the end; move it into the crashed tab's place
        if (
            self.notes
            and isinstance(self.notes[-1], dict)
            and self.notes[-1].get("event") == "tab_opened"
        ):
            self.notes.pop()
        index = self.index_of(tab.page)
        position = index if index is not None else len(self.tabs)
        self.tabs.insert(position, fresh_tab)
        if self.current is tab:
            self.current = fresh_tab
        self.note({"event": event, "index": position, "replacedBy": "a new blank tab"})
        if index is not None:
            self.tabs.remove(tab)
        await _close_quietly(tab.page)

    async def settle(self) -> None:
        """Wait for crashed tabs to be replaced before the next call runs."""
        while self._repairs:
            await asyncio.gather(*list(self._repairs), return_exceptions=True)

    def tab_list(self) -> list[JsonValue]:
        return [
            {"index": i, "url": t.page.url, "current": t is self.current, "crashed": t.crashed}
            for i, t in enumerate(self.tabs)
        ]


async def _close_quietly(page: Page) -> None:
    try:
        async with asyncio.timeout(10):
            await page.close()
    except Exception:
        log.debug("closing a page failed", exc_info=True)

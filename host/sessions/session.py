"""A session: one isolated BrowserContext with its tabs, current tab and event buffers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from playwright.async_api import (
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Download,
    FileChooser,
    Page,
    Request,
    Response,
    Route,
    WebError,
)

from host.sessions.downloads import save_download
from host.sessions.keys import SessionKey
from host.sessions.navigation import NavigationPolicy
from host.sessions.page_guards import DROPPED_MARKER, console_limiter, lasting_workers_refused
from host.sessions.pending_work import PENDING_WORK_SCRIPT
from host.sessions.selfguard import SelfGuard
from host.sessions.session_files import SessionFiles, save_trace, unguessable
from host.sessions.worker_guard import guard_workers
from host.settings.browser_options import request_origin
from host.settings.config import HostConfig
from host.shared.globs import url_matches
from host.shared.jsontypes import JsonObject, JsonValue

log = logging.getLogger(__name__)


class Watch(Protocol):
    """What a running action set off, as the session holds it: `host.sessions.settle.ActionWatch`, which
    watches a session and so is defined above it (the session names only what it needs)."""

    def stop(self) -> None:
        """Stop listening to the session's pages."""

    def skip(self) -> None:
        """The call only read the page or typed: its feedback does not wait."""

    def waited(self) -> None:
        """The tool waited for its own document: its feedback does not wait again."""

    async def settle(self) -> None:
        """Wait, boundedly, for what the action set off."""

    def report(self) -> list[JsonValue]:
        """What the action set off, for its feedback."""


MAX_NOTES = 50
_LEVELS = {"error": 3, "warning": 2, "info": 1, "debug": 0}
_TYPE_LEVEL = {
    "error": "error",
    "assert": "error",
    "warning": "warning",
    "debug": "debug",
    "trace": "debug",
    "profile": "debug",
    "profileEnd": "debug",
}


def console_level(message_type: str) -> str:
    """The level (`error`, `warning`, `info`, `debug`) of a console message type."""
    return _TYPE_LEVEL.get(message_type, "info")


def level_at_least(level: str, minimum: str) -> bool:
    return _LEVELS.get(level, 1) >= _LEVELS.get(minimum, 0)


def clip(text: str, limit: int) -> str:
    return (
        text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more characters]"
    )


@dataclass
class Tab:
    """One page of a session; `crashed` is set when its renderer died (it is then replaced).

    `refs` are the element refs of the tab's current `web_snapshot` (a full snapshot replaces
    them, a snapshot of a part adds to them); a ref outside them is refused as stale. `cdp` is a
    DevTools session attached when the tab opened (None on other engines): a script looping in
    the page can be stopped through it, which a session attached later could not do.
    """

    page: Page
    crashed: bool = False
    refs: set[str] = field(default_factory=set)
    target_id: str | None = None
    cdp: Any = None
    attaching: asyncio.Task[None] | None = None
    throttle: float = 1.0
    file_chooser: FileChooser | None = None
    """A file chooser the page opened and nobody answered yet (browser_file_upload without a
    target answers it, as @playwright/mcp's modal state)."""
    opened_note: JsonObject | None = None
    """The `tab_opened` note of a tab that opened during the session (its URL is updated once the
    action that opened it settles)."""

    async def attached(self) -> None:
        """Wait (at most 5 s) until the tab's DevTools session and worker guard are in place."""
        if self.attaching is not None and not self.attaching.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.attaching), 5)


class _Rate:
    """Counts events in one-second windows; `hit` says when a window passes `limit`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.start = 0.0
        self.count = 0

    def hit(self) -> bool:
        now = time.monotonic()
        if now - self.start >= 1.0:
            self.start, self.count = now, 0
        self.count += 1
        return self.count == self.limit + 1


@dataclass
class RouteRule:
    """A route the session installed with `web_route`, and how often it fired."""

    url: str
    action: str
    spec: JsonObject
    times: int | None
    hits: int = 0
    handler: object = field(default=None, repr=False)

    def to_json(self) -> JsonObject:
        """What the route answers: a fulfilled one its `status`, `contentType`, `headers` and
        `bodyBytes` (the body's size in UTF-8, not the body), an aborted one its `errorCode`, a
        continued one the `headers` it adds."""
        described: JsonObject = {
            "url": self.url,
            "action": self.action,
            "hits": self.hits,
            "times": self.times,
        }
        spec = self.spec
        headers = spec.get("headers")
        if self.action == "fulfill":
            described["status"] = spec.get("status") or 200
            body = spec.get("body")
            content_type = spec.get("contentType")
            if "json" in spec:
                body = json.dumps(spec["json"])
                content_type = content_type or "application/json"
            if content_type:
                described["contentType"] = content_type
            described["bodyBytes"] = len(str(body).encode()) if body is not None else 0
        elif self.action == "abort":
            described["errorCode"] = spec.get("errorCode") or "failed"
        if isinstance(headers, dict) and headers:
            described["headers"] = headers
        if self.action == "continue" and spec.get("remove"):
            described["remove"] = spec["remove"]
        return described


@dataclass
class _ResponseWaiter:
    url: str
    status: int | None
    future: asyncio.Future[Response]


class Session:
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

    def __init__(
        self,
        key: SessionKey,
        context: BrowserContext,
        generation: int,
        config: HostConfig,
        policy: NavigationPolicy | None = None,
    ) -> None:
        self.id = secrets.token_hex(16)
        self.key = key
        self.context = context
        self.generation = generation
        self.config = config
        self.policy = policy or NavigationPolicy.allowing(config.file_dirs)
        self.tabs: list[Tab] = []
        self.current: Tab | None = None
        self.lock = asyncio.Lock()
        self.created = time.monotonic()
        self.last_used = self.created
        self.busy = 0
        self.ended: str | None = None
        self.pool: Any = None
        """The BrowserPool (host/browsers/browser.py) of the endpoint this session was placed on."""
        self.lost_told = False
        """A call was told `browser_lost` for this session (its endpoint went away)."""
        self.notes: list[JsonValue] = []
        """Events for the next result (tabs opened or crashed, dialogs answered); at most MAX_NOTES."""
        self.console: deque[JsonObject] = deque(maxlen=config.buffer_limit)
        self.console_read: deque[JsonObject] = deque(maxlen=config.buffer_limit)
        """Messages browser_console_messages already returned (its `all` returns them too)."""
        self.console_dropped = 0
        self.network: deque[tuple[Request, JsonObject]] = deque(maxlen=config.buffer_limit)
        self.network_dropped = 0
        self._network_index: dict[Request, JsonObject] = {}
        """Each kept request's entry (the same dict in `network` while it is not taken), so a
        status or failure that comes after browser_network_requests took it is still noted for
        `kept_network`; pruned with `requests_by_id`."""
        self.requests_by_id: dict[int, Request] = {}
        """The latest `buffer_limit` requests by their `id` (browser_network_request), kept when
        browser_network_requests takes the list."""
        self._next_request_id = 1
        self.responses: deque[Response] = deque(maxlen=min(config.buffer_limit, 200))
        self._response_waiters: list[_ResponseWaiter] = []
        self.open_dialogs: list[Dialog] = []
        self.dialog_answer: tuple[bool, str | None] | None = None
        self.routes: list[RouteRule] = []
        self.inflight: asyncio.Task[object] | None = None
        self.interrupted_by_dialog = False
        self._background: set[asyncio.Task[None]] = set()
        self._repairs: set[asyncio.Task[None]] = set()
        self.cdp_url: str | None = None
        """Where a worker process reaches this session's browser over CDP (playwright_execute)."""
        self.new_errors: deque[str] = deque(maxlen=20)
        """Console errors and page errors not yet shown in an agent tool's feedback."""
        self.new_console: deque[JsonObject] = deque(maxlen=10)
        """Console messages at or above `config.console_level` (page errors included) not yet
        shown in an agent tool's feedback: the latest 10, `{level, text}`."""
        self.new_console_dropped = 0
        self.watch: Watch | None = None
        """What the running action set off (host/sessions/settle.py), while an action that settles runs."""
        self.closing_intent = False
        """Set by a tool that closes a tab on the caller's behalf: closing the last one then ends
        the session (a page closing itself only gets a fresh tab)."""
        self.blocked_landing: str | None = None
        """A URL a frame landed on that the policy refuses (the page was taken away from it)."""
        self._rates = {
            kind: _Rate(config.event_flood) for kind in ("console", "pageerror", "network")
        }
        self._dialog_rate = _Rate(20)
        self._paused: set[str] = set()
        self.user_agent: str | None = None
        """Set by `web_setUserAgent`; tabs that open later get it too."""
        self._downloads: list[asyncio.Task[JsonObject]] = []
        self.files = SessionFiles.for_config(config, key.transport)
        """The session's own folder of files (downloads, screenshots, saved states, ...)."""
        self.downloads_started = 0
        """Downloads begun in this session, ever (a settle compares it before and after)."""

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
        except BaseException:
            await context.close()
            raise
        session._adopt(page)
        session.current = session.tabs[0]
        session.notes.clear()  # the first tab is not news
        await session.tabs[0].attached()  # before the first call navigates it
        return session

    # -- what the session listens to, and floods -------------------------------------------

    def _handlers(self, kind: str) -> list[tuple[str, Any]]:
        if kind == "console":
            return [("console", self._on_console)]
        if kind == "pageerror":
            return [("weberror", self._on_web_error)]
        return [
            ("request", self._on_request),
            ("response", self._on_response),
            ("requestfailed", self._on_request_failed),
        ]

    def _listen(self, kind: str) -> None:
        for event, handler in self._handlers(kind):
            self.context.on(event, handler)  # type: ignore[call-overload]

    def _flooded(self, kind: str) -> bool:
        """Count one event of `kind`; past the flood limit, stop listening for a while."""
        if not self._rates[kind].hit():
            return False
        if kind in self._paused or self.ended is not None:
            return True
        self._paused.add(kind)
        for event, handler in self._handlers(kind):
            self.context.remove_listener(event, handler)
        pause = self.config.flood_pause
        slowdown = self.config.flood_slowdown
        self.note(
            {
                "event": "flood",
                "kind": kind,
                "detail": f"a page sent more than {self.config.event_flood} {kind} events in a "
                f"second; they are not recorded for the next {pause:g} s"
                + (
                    f", and the session's tabs run {slowdown:g}x slower meanwhile"
                    if slowdown > 1
                    else ""
                ),
            }
        )
        self._spawn(self._throttle())
        if kind == "console":
            self.console_dropped += 1
        asyncio.get_running_loop().call_later(pause, self._resume, kind)
        return True

    def _resume(self, kind: str) -> None:
        if kind in self._paused and self.ended is None:
            self._paused.discard(kind)
            self._listen(kind)
            self._spawn(self._throttle())

    async def _throttle(self) -> None:
        """Slow every tab's CPU while a flood is not listened to; back to full speed after."""
        rate = max(1.0, self.config.flood_slowdown) if self._paused else 1.0
        for tab in list(self.tabs):
            if tab.cdp is None or tab.throttle == rate:
                continue
            tab.throttle = rate
            with contextlib.suppress(Exception):  # the tab closed meanwhile
                await tab.cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})

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

    def _end(self, reason: str) -> None:
        if self.ended is None:
            self.ended = reason

    def _spawn(
        self, coroutine: Coroutine[Any, Any, None], *, repair: bool = False
    ) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        bucket = self._repairs if repair else self._background
        bucket.add(task)
        task.add_done_callback(bucket.discard)
        task.add_done_callback(_consume)
        return task

    # -- tabs ------------------------------------------------------------------------------

    def index_of(self, page: Page | None) -> int | None:
        for index, tab in enumerate(self.tabs):
            if tab.page is page:
                return index
        return None

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
        page.on("filechooser", lambda chooser: setattr(tab, "file_chooser", chooser))
        tab.attaching = self._spawn(self._attach(tab))
        if self.current is None:
            self.current = tab
        else:
            tab.opened_note = {"event": "tab_opened", "index": len(self.tabs) - 1, "url": page.url}
            self.note(tab.opened_note)

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

    # -- console -----------------------------------------------------------------------------

    def _push_console(self, entry: JsonObject) -> None:
        if len(self.console) == self.console.maxlen:
            self.console_dropped += 1
        self.console.append(entry)
        level = str(entry.get("level", "info"))
        line = clip(str(entry.get("text", "")).split("\n")[0], 300)
        if level == "error":
            self.new_errors.append(line)
        if level_at_least(level, self.config.console_level):
            if len(self.new_console) == self.new_console.maxlen:
                self.new_console_dropped += 1
            self.new_console.append({"level": level, "text": line})

    def take_new_errors(self) -> list[str]:
        """Errors logged since the last time this was called (at most the last 20)."""
        errors = list(self.new_errors)
        self.new_errors.clear()
        return errors

    def take_new_console(self) -> tuple[list[JsonObject], int]:
        """Messages at or above the console level since the last time this was called (the
        latest 10), and how many earlier ones were left out."""
        messages, dropped = list(self.new_console), self.new_console_dropped
        self.new_console.clear()
        self.new_console_dropped = 0
        return messages, dropped

    def _on_console(self, message: ConsoleMessage) -> None:
        if self._flooded("console"):
            return
        text = message.text
        if text.startswith(DROPPED_MARKER) and message.type == "warning":
            count = text[len(DROPPED_MARKER) :]
            if count.isdigit():
                self.console_dropped += int(count)
                return
        entry: JsonObject = {
            "level": console_level(message.type),
            "type": message.type,
            "text": clip(message.text, self.config.message_limit),
            "tab": self.index_of(message.page),
        }
        location = message.location
        if location and location.get("url"):
            entry["location"] = f"{location['url']}:{location.get('lineNumber', 0)}"
        self._push_console(entry)

    def _on_web_error(self, error: WebError) -> None:
        if self._flooded("pageerror"):
            return
        text = error.error.stack or error.error.message
        self._push_console(
            {
                "level": "error",
                "type": "pageerror",
                "text": clip(text, self.config.message_limit),
                "tab": self.index_of(error.page),
            }
        )

    # -- network -----------------------------------------------------------------------------

    def _on_request(self, request: Request) -> None:
        if self._flooded("network"):
            return
        if len(self.network) == self.network.maxlen:
            self.network_dropped += 1
        entry: JsonObject = {
            "id": self._next_request_id,
            "method": request.method,
            "url": clip(request.url, 2048),
            "resourceType": request.resource_type,
            "status": None,
            "failure": None,
        }
        self.network.append((request, entry))
        self._network_index[request] = entry
        self.requests_by_id[self._next_request_id] = request
        self._next_request_id += 1
        if len(self.requests_by_id) > self.config.buffer_limit:
            del self.requests_by_id[next(iter(self.requests_by_id))]
        if len(self._network_index) > self.config.buffer_limit:
            del self._network_index[next(iter(self._network_index))]

    def _on_response(self, response: Response) -> None:
        entry = self._network_index.get(response.request)
        if entry is not None:
            entry["status"] = response.status
        for waiter in self._response_waiters:
            if waiter.future.done():
                continue
            if _response_fits(response, waiter.url, waiter.status):
                waiter.future.set_result(response)
                return
        self.responses.append(response)

    def _on_request_failed(self, request: Request) -> None:
        entry = self._network_index.get(request)
        if entry is not None:
            entry["failure"] = request.failure or "failed"

    def take_network(self) -> tuple[list[JsonValue], int]:
        entries: list[JsonValue] = [dict(entry) for _, entry in self.network]
        dropped = self.network_dropped
        self.network.clear()
        self.network_dropped = 0
        return entries, dropped

    def kept_network(self) -> list[JsonObject]:
        """Every kept request (the latest `buffer_limit`), oldest first, taken or not: as
        @playwright/mcp lists them, each under the id it keeps (browser_network_request)."""
        return [dict(entry) for entry in self._network_index.values()]

    async def wait_for_response(self, url: str, status: int | None, timeout: float) -> Response:
        """The first response matching `url` (and `status`) not yet taken, else the next one."""
        for response in list(self.responses):
            if _response_fits(response, url, status):
                self.responses.remove(response)
                return response
        future: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        waiter = _ResponseWaiter(url, status, future)
        self._response_waiters.append(waiter)
        try:
            async with asyncio.timeout(timeout):
                return await future
        finally:
            self._response_waiters.remove(waiter)

    # -- downloads ---------------------------------------------------------------------------

    def _on_download(self, download: Download) -> None:
        self.downloads_started += 1
        task = asyncio.ensure_future(
            save_download(download, self.files, self.config.max_download_bytes)
        )
        self._downloads.append(task)

    async def take_download(self, appear: float, wait: float) -> JsonObject | None:
        """The first download started and not yet reported, once saved: waits `appear` seconds
        at most for one to start and `wait` for it to finish (then None, and it is reported
        when done). What `browser_navigate` to an attachment answers with."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + appear
        while not self._downloads and loop.time() < give_up:
            await asyncio.sleep(0.05)
        if not self._downloads:
            return None
        task = self._downloads[0]
        done, _ = await asyncio.wait({task}, timeout=wait)
        if not done:
            return None
        self._downloads.remove(task)
        if task.cancelled() or task.exception() is not None:
            error = None if task.cancelled() else task.exception()
            return {"event": "download_failed", "detail": clip(str(error), 300)}
        return task.result()

    async def settle_downloads(self, wait: float) -> None:
        """Wait (at most `wait` seconds) for the downloads started so far and note each one;
        one still running is noted as such and reported when it ends."""
        if not self._downloads:
            return
        done, pending = await asyncio.wait(self._downloads, timeout=wait)
        self._downloads = list(pending)
        for task in done:
            if task.cancelled() or task.exception() is not None:
                error = None if task.cancelled() else task.exception()
                self.note({"event": "download_failed", "detail": clip(str(error), 300)})
            else:
                self.note(task.result())
        if pending:
            self.note(
                {
                    "event": "download_running",
                    "detail": f"{len(pending)} download(s) still running; reported when done",
                }
            )

    # -- dialogs -----------------------------------------------------------------------------

    def _on_dialog(self, dialog: Dialog) -> None:
        if self.dialog_answer is not None:
            accept, text = self.dialog_answer
            self.dialog_answer = None
            self._answer(dialog, accept, text, how="answered as armed by web_handle_dialog")
            return
        policy = self.config.dialog_policy
        if self._dialog_rate.hit():
            self.note(
                {
                    "event": "flood",
                    "kind": "dialog",
                    "detail": "a page opened more than 20 dialogs in a second; this one stays "
                    "open (answer it with browser_handle_dialog)",
                }
            )
        elif policy in ("accept", "dismiss") and self._dialog_rate.count <= 20:
            self._answer(dialog, policy == "accept", None, how=f"answered by the '{policy}' policy")
            return
        self.open_dialogs.append(dialog)
        task = self.inflight
        if task is not None and not task.done() and self._blocks(dialog):
            self.interrupted_by_dialog = True
            task.cancel()

    def _on_dialog_closed(self, dialog: Dialog) -> None:
        # Closed by someone else (another client of a --cdp-endpoint browser, a person at a
        # headed browser): it no longer blocks the tab (@playwright/mcp, playwright#41837).
        if dialog in self.open_dialogs:
            self.open_dialogs.remove(dialog)

    def _answer(self, dialog: Dialog, accept: bool, text: str | None, *, how: str) -> None:
        self.note({"event": "dialog", **describe_dialog(dialog), "accepted": accept, "how": how})
        if accept:
            self._spawn(dialog.accept(text) if text is not None else dialog.accept())
        else:
            self._spawn(dialog.dismiss())

    def _blocks(self, dialog: Dialog) -> bool:
        return self.current is not None and (
            dialog.page is None or dialog.page is self.current.page
        )

    def blocking_dialog(self) -> Dialog | None:
        """The open dialog of the current tab, if any (calls on that tab wait for an answer)."""
        for dialog in self.open_dialogs:
            if self._blocks(dialog):
                return dialog
        return None

    # -- routes ------------------------------------------------------------------------------

    async def add_route(self, rule: RouteRule) -> None:
        async def handler(route: Route) -> None:
            rule.hits += 1
            if rule.times is not None and rule.hits >= rule.times and rule in self.routes:
                self.routes.remove(rule)
            await _apply_route(route, rule)

        rule.handler = handler
        await self.context.route(rule.url, handler, times=rule.times)
        self.routes.append(rule)

    async def remove_routes(self, url: str | None) -> int:
        """Remove the routes installed with exactly the glob `url` (every route when None)."""
        removed = [r for r in self.routes if url is None or r.url == url]
        for rule in removed:
            self.routes.remove(rule)
            await self.context.unroute(rule.url, rule.handler)  # type: ignore[arg-type]
        return len(removed)

    # -- results -----------------------------------------------------------------------------

    def note(self, event: JsonObject) -> None:
        self.notes.append(event)
        if len(self.notes) > MAX_NOTES:
            del self.notes[0]

    def take_notes(self) -> list[JsonValue]:
        notes, self.notes = self.notes, []
        return notes


def describe_dialog(dialog: Dialog) -> JsonObject:
    described: JsonObject = {"type": dialog.type, "message": clip(dialog.message, 2048)}
    if dialog.type == "prompt":
        described["defaultValue"] = dialog.default_value
    return described


def _response_fits(response: Response, url: str, status: int | None) -> bool:
    return url_matches(url, response.url) and (status is None or response.status == status)


async def _apply_route(route: Route, rule: RouteRule) -> None:
    spec = rule.spec
    if rule.action == "abort":
        await route.abort(str(spec.get("errorCode") or "failed"))
    elif rule.action == "fulfill":
        headers = spec.get("headers")
        body = spec.get("body")
        content_type = spec.get("contentType")
        if "json" in spec:
            body = json.dumps(spec["json"])
            content_type = content_type or "application/json"
        await route.fulfill(
            status=int(spec.get("status") or 200),  # type: ignore[arg-type]
            headers=headers if isinstance(headers, dict) else None,  # type: ignore[arg-type]
            content_type=str(content_type) if content_type else None,
            body=str(body) if body is not None else None,
        )
    else:
        overrides = spec.get("headers")
        removed = spec.get("remove")
        if isinstance(overrides, dict) or isinstance(removed, list):
            gone = {str(name).lower() for name in removed} if isinstance(removed, list) else set()
            added = overrides if isinstance(overrides, dict) else {}
            merged = {k: v for k, v in route.request.headers.items() if k.lower() not in gone}
            merged |= {k: str(v) for k, v in added.items()}
            # `fallback`, not `continue_`: the request still passes the routes installed before
            # this rule (the self guard, the origin filter) on its way out.
            await route.fallback(headers=merged)
        else:
            await route.fallback()


async def _close_quietly(page: Page) -> None:
    try:
        async with asyncio.timeout(10):
            await page.close()
    except Exception:
        log.debug("closing a page failed", exc_info=True)


def _consume(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.debug("background task failed: %s", task.exception())

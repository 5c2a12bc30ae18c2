"""What every part of a session shares: its context, tabs and current tab, its notes for the
next result, its background tasks, and the flood control of the events it listens to.

`Session` (`host/sessions/session.py`) is this state with its parts, each in its own module: the
console (`console_log`), the network (`network_log`), dialogs (`dialogs`), downloads
(`downloads`) and routes (`routes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from playwright.async_api import BrowserContext, Page

from host.sessions.keys import SessionKey
from host.sessions.navigation import NavigationPolicy
from host.sessions.session_files import SessionFiles
from host.sessions.tab import Tab
from host.settings.config import HostConfig
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


def clip(text: str, limit: int) -> str:
    return (
        text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more characters]"
    )


class Rate:
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


# The handlers of each kind of event a flood can pause, by the name of the part's method.
_FLOOD_HANDLERS: dict[str, tuple[tuple[str, str], ...]] = {
    "console": (("console", "_on_console"),),
    "pageerror": (("weberror", "_on_web_error"),),
    "network": (
        ("request", "_on_request"),
        ("response", "_on_response"),
        ("requestfailed", "_on_request_failed"),
    ),
}


class SessionState:
    """The state every part of a session reads: see `Session` for what a session guarantees.

    Guarantees: `notes` holds at most `MAX_NOTES` events, the oldest dropped first; a task
    `_spawn` starts is kept until it ends and its failure is logged, never raised; a kind of
    event that floods is not listened to for `flood_pause` seconds, with a note.
    """

    console_dropped: int
    """Console messages dropped (kept by the console part; a console flood counts into it)."""

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
        self.inflight: asyncio.Task[object] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._repairs: set[asyncio.Task[None]] = set()
        self.cdp_url: str | None = None
        """Where a worker process reaches this session's browser over CDP (playwright_execute)."""
        self.watch: Watch | None = None
        """What the running action set off (host/sessions/settle.py), while an action that settles runs."""
        self.closing_intent = False
        """Set by a tool that closes a tab on the caller's behalf: closing the last one then ends
        the session (a page closing itself only gets a fresh tab)."""
        self.blocked_landing: str | None = None
        """A URL a frame landed on that the policy refuses (the page was taken away from it)."""
        self._rates = {
            kind: Rate(config.event_flood) for kind in ("console", "pageerror", "network")
        }
        self._paused: set[str] = set()
        self.user_agent: str | None = None
        """Set by `web_setUserAgent`; tabs that open later get it too."""
        self.files = SessionFiles.for_config(config, key.transport)
        """The session's own folder of files (downloads, screenshots, saved states, ...)."""

    def _handlers(self, kind: str) -> list[tuple[str, Any]]:
        return [(event, getattr(self, name)) for event, name in _FLOOD_HANDLERS[kind]]

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

    def index_of(self, page: Page | None) -> int | None:
        for index, tab in enumerate(self.tabs):
            if tab.page is page:
                return index
        return None

    def note(self, event: JsonObject) -> None:
        self.notes.append(event)
        if len(self.notes) > MAX_NOTES:
            del self.notes[0]

    def take_notes(self) -> list[JsonValue]:
        notes, self.notes = self.notes, []
        return notes


def _consume(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.debug("background task failed: %s", task.exception())

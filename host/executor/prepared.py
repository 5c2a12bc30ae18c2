"""Sessions made ahead of the actions that take them: a new context, its guards and first tab.

Making a session (a new BrowserContext, the session's listeners, its init script, the first tab
and its worker guard) is about a third of a short action's time, and it depends on nothing the
action says. So the next action's session is made while an action runs: an action takes one
ready (or on its way) and starts with its navigation. A session made ahead is as fresh as one
made on demand: no action used it, and each is taken by one action only, then closed with it.

When to start making it matters on two cores: made while the action's own page loads and is
counted, it slows that action by about what it saves the next one. The runner asks for it when
it submits (the rest is waiting for the server and a page's load), and the service again once
an action ended, whatever came of it (`fill` does nothing when one is made or on its way).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import secrets
from dataclasses import dataclass

from host.calls.core import Host
from host.sessions.keys import SessionKey

log = logging.getLogger(__name__)

MAKE_LIMIT_S = 30.0
"""How long making a session ahead may take before it is given up."""
PATIENCE_S = 5.0
"""How long an action waits for a session on its way before it makes its own (one takes a
fraction of a second; one taking longer was caught by a browser going away)."""


@dataclass
class _Ahead:
    host: Host
    key: SessionKey
    generation: int
    """The browser's generation when it was started: one made on a browser since lost is not
    waited for."""
    making: asyncio.Task[None]


class SessionsAhead:
    """Up to `depth` sessions made ahead of the next actions.

    Guarantees: a session made ahead goes to one action only (`take` hands it over under that
    action's key, in the session manager, before any call of the action runs), the one made
    first first; one that cannot be used any more (its browser gone, ended, its host replaced)
    is closed and never handed over, and the action then makes its own session as it would
    without this; `take` never raises for what making a session did. With `depth` 0 nothing is
    made ahead.
    """

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self._ahead: collections.deque[_Ahead] = collections.deque()
        self._closing: set[asyncio.Task[None]] = set()

    def fill(self, host: Host) -> None:
        """Start making sessions ahead until `depth` are made or on their way."""
        while len(self._ahead) < self.depth and not host.closed:
            key = SessionKey("executor", "ahead-" + secrets.token_hex(8))
            making = asyncio.ensure_future(_make(host, key))
            self._ahead.append(_Ahead(host, key, host.pool.generation, making))

    def count(self, host: Host | None) -> int:
        """Sessions of `host` made ahead and not taken yet."""
        return sum(
            1 for a in self._ahead if a.host is host and host.sessions.get(a.key) is not None
        )

    async def take(self, host: Host, key: SessionKey) -> bool:
        """Hand a session made ahead to the action of `key`, waiting for it when it is on its
        way (`PATIENCE_S` at most). False when there was none to hand over: the action's first
        call then makes its session."""
        ahead = self._ahead.popleft() if self._ahead else None
        if ahead is None:
            return False
        current = (
            ahead.host is host
            and host.pool.connected is not None
            and host.pool.generation == ahead.generation
        )
        handed = False
        try:
            if current and not ahead.making.done():
                await asyncio.wait_for(asyncio.shield(ahead.making), PATIENCE_S)
            if ahead.making.done():
                handed = ahead.host is host and host.sessions.hand_over(ahead.key, key) is not None
        except TimeoutError:
            pass
        finally:
            if not handed:  # closed once it is made: no action takes it
                ahead.making.add_done_callback(lambda _: self._discard(ahead))
        return handed

    def _discard(self, ahead: _Ahead) -> None:
        if ahead.host.sessions.get(ahead.key) is None:
            return
        task = asyncio.ensure_future(ahead.host.sessions.drop(ahead.key, "made ahead, not used"))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        """Stop making sessions ahead (the host closes those made with its other sessions)."""
        ahead, self._ahead = list(self._ahead), collections.deque()
        for entry in ahead:
            entry.making.cancel()
        for entry in ahead:
            with contextlib.suppress(BaseException):
                await entry.making
        if self._closing:
            await asyncio.wait(set(self._closing), timeout=10)


async def _make(host: Host, key: SessionKey) -> None:
    try:
        async with asyncio.timeout(MAKE_LIMIT_S):
            await host.sessions.prepare(key)
    except Exception as error:  # the action that comes makes its own and reports what fails
        log.debug("making a session ahead failed: %s", error)

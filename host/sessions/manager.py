"""Sessions by transport key: created on first use, bounded in number, closed when idle."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict

from host.browsers.browser import BrowserPool
from host.browsers.endpoints import EndpointPool
from host.sessions.keys import SessionKey, key_of
from host.sessions.selfguard import SelfGuard
from host.sessions.session import Session
from host.settings.config import HostConfig
from host.shared.errors import HostError

log = logging.getLogger(__name__)


class SessionManager:
    """Maps a transport's session key to its Session.

    Keys are `SessionKey` values (transport, caller, agent), so no caller's text can name another
    transport's or another caller's session. Guarantees: at most `max_sessions` live sessions
    (one more is `too_many_sessions`); a session idle (no call running) for `idle_timeout`
    seconds is closed by `reap_idle`; an ended session (last tab closed by its caller, context
    closed, browser or driver gone) is replaced on the next call and that call is told why;
    `acquire` waits for a browser launch no longer than the caller's `timeout`. A session made
    ahead of its first call (`prepare`) and closed before any call used it is no news to that
    call; until a call used it, it may be handed to another key (`hand_over`), never to two.
    """

    def __init__(
        self,
        config: HostConfig,
        pool: BrowserPool,
        guard: SelfGuard | None = None,
        endpoints: EndpointPool | None = None,
    ) -> None:
        self._config = config
        self._pool = pool
        self.endpoints = endpoints or EndpointPool(config, pool)
        self._counted: set[Session] = set()
        """Sessions counted in their endpoint's live sessions (a lost endpoint's are not)."""
        for endpoint in self.endpoints.endpoints:
            endpoint.pool.on_loss.append(lambda why, p=endpoint.pool: self._uncount(p))
        self._guard = guard
        self._sessions: dict[SessionKey, Session] = {}
        self._ended: OrderedDict[SessionKey, str] = OrderedDict()
        self._creating: dict[SessionKey, asyncio.Future[Session]] = {}
        self._unused: set[SessionKey] = set()
        """Sessions `prepare` made that no call has acquired yet."""
        self.created = 0
        self.session_type: type[Session] = Session
        """What the sessions made here are (a transport may make a kind of its own)."""

    def __len__(self) -> int:
        return len(self._sessions)

    def get(self, key: SessionKey | str) -> Session | None:
        """The live session of `key` (a string names an in-process caller's session)."""
        return self._sessions.get(key_of(key))

    def sessions(self) -> list[Session]:
        return list(self._sessions.values())

    async def acquire(
        self, key: SessionKey, timeout: float | None = None
    ) -> tuple[Session, str | None]:
        """The live session for `key`, creating it if needed; the second value says why it is new
        (`None` if it is not: a first session is not news, a replaced one is)."""
        session = self._sessions.get(key)
        if session is not None:
            pool = self.pool_of(session)
            if session.generation != pool.generation or pool.connected is None:
                # Its pages closing first may have ended it already; the browser is the real cause.
                loss = pool.check() or pool.last_loss or "the browser exited"
                if not self.endpoints.several:
                    session.ended = f"{loss}; a new one is started"
                elif not session.lost_told:
                    await self.drop(key)
                    self._ended.pop(key, None)  # told now, by this error
                    raise HostError("browser_lost", self.lost_message(session, loss))
                else:  # a call that ran when the endpoint was lost said so: a new session now
                    session.ended = self.lost_message(session, loss)
            if session.ended is None:
                self._unused.discard(key)
                return session, None
            await self.drop(key)
        pending = self._creating.get(key)
        if pending is not None:
            async with asyncio.timeout(timeout):
                session = await asyncio.shield(pending)
            self._unused.discard(key)
            return session, None
        if len(self._sessions) + len(self._creating) >= self._config.max_sessions:
            raise HostError(
                "too_many_sessions",
                f"the host already holds {self._config.max_sessions} sessions (its --max-sessions "
                "limit); end one (close its last tab) or wait until idle sessions expire "
                f"({self._config.idle_timeout:g} s without a call)",
            )
        future: asyncio.Future[Session] = asyncio.get_running_loop().create_future()
        self._creating[key] = future
        endpoint = None
        try:
            endpoint = await self.endpoints.place(timeout)
            pool = endpoint.pool
            browser = await pool.browser(timeout)
            async with asyncio.timeout(timeout):
                context = await pool.new_context(browser)
                session = await self.session_type.create(
                    key, context, pool.generation, self._config, self._guard
                )
            session.cdp_url = pool.cdp_url
            session.pool = pool
            self._counted.add(session)
        except BaseException as error:
            self.endpoints.release(endpoint)
            future.set_exception(error)
            future.exception()  # retrieved: waiters re-raise it themselves
            raise
        finally:
            del self._creating[key]
        future.set_result(session)
        self._sessions[key] = session
        self.created += 1
        reason = self._ended.pop(key, None)
        return session, reason

    def _uncount(self, pool: BrowserPool) -> None:
        """An endpoint's browser is gone: its sessions are live no more (each is told on its
        next call)."""
        for session in [s for s in self._counted if s.pool is pool]:
            self._counted.discard(session)
            self.endpoints.release(self.endpoints.of(pool))

    def pool_of(self, session: Session) -> BrowserPool:
        """The browser pool `session` was placed on."""
        pool: BrowserPool | None = session.pool
        return pool if pool is not None else self._pool

    def lost_message(self, session: Session, loss: str) -> str:
        """Why a session of a pool of several endpoints ended with its endpoint."""
        endpoint = self.endpoints.of(session.pool)
        where = endpoint.spec.shown if endpoint is not None else "its browser endpoint"
        return (
            f"the browser at {where} was lost ({loss}); this session ended with it, and the "
            "next call starts a new session on another endpoint"
        )

    async def prepare(self, key: SessionKey) -> None:
        """Make the session of `key` now, ahead of its first call (the browser launched if
        needed); raises what `acquire` raises."""
        if key in self._sessions or key in self._creating:
            return
        await self.acquire(key)
        if key in self._sessions:
            # Made here; a call that waited for it has not resumed yet and will discard this.
            self._unused.add(key)

    def hand_over(self, made: SessionKey, key: SessionKey) -> Session | None:
        """Give the session `prepare` made for `made`, unused, to `key` (which holds none): it is
        then `key`'s, as if made by its first call. None, and nothing changed, when there is no
        such session or it can no longer be used (ended, or its browser gone since)."""
        session = self._sessions.get(made)
        if (
            session is None
            or made not in self._unused
            or key in self._sessions
            or key in self._creating
            or session.ended is not None
            or session.busy
        ):
            return None
        pool = self.pool_of(session)
        if session.generation != pool.generation or pool.connected is None:
            return None
        del self._sessions[made]
        self._unused.discard(made)
        session.key = key
        self._sessions[key] = session
        return session

    async def drop(self, key: SessionKey | str, reason: str | None = None) -> None:
        """Close the session of `key`; the next call for `key` starts a new one and is told why."""
        key = key_of(key)
        session = self._sessions.pop(key, None)
        if session is None:
            return
        if session in self._counted:
            self._counted.discard(session)
            self.endpoints.release(self.endpoints.of(session.pool))
        if key in self._unused:
            self._unused.discard(key)  # made ahead and never used: its end is no one's news
        else:
            self._ended[key] = reason or session.ended or "the session was closed"
        while len(self._ended) > 4096:
            self._ended.popitem(last=False)
        await session.close()

    async def drop_family(self, key: SessionKey, reason: str) -> None:
        """Close the session of `key` and its sub-sessions (webBrowser agents)."""
        parent = key.parent
        for other in [k for k in self._sessions if k.parent == parent and k != parent]:
            await self.drop(other, reason)
        await self.drop(parent, reason)

    async def reap_idle(self, now: float | None = None) -> int:
        """Close sessions with no call running and none for `idle_timeout` seconds."""
        now = time.monotonic() if now is None else now
        idle = [
            key
            for key, s in self._sessions.items()
            if s.busy == 0 and now - s.last_used >= self._config.idle_timeout
        ]
        for key in idle:
            await self.drop(key, f"it was idle for {self._config.idle_timeout:g} s and was closed")
        return len(idle)

    async def run_reaper(self) -> None:
        """Reap idle sessions until cancelled."""
        period = max(0.2, min(self._config.idle_timeout / 4, 30.0))
        while True:
            await asyncio.sleep(period)
            try:
                await self.reap_idle()
            except Exception:
                log.exception("reaping idle sessions failed")

    async def close_all(self) -> None:
        for key in list(self._sessions):
            await self.drop(key, "the host shut down")

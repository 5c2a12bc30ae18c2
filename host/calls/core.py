"""The host: sessions, browser and registry behind one `call(session_key, tool, args)`.

`Host.call` is the list of a call's steps, each in its own module: `check`, `place`, `record`
(its reading of the page starts before the run), `run`, `settling`, `results` (the value as an
outcome), the recording kept, and `answer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from types import TracebackType

from host.browsers.browser import BrowserPool
from host.browsers.endpoints import EndpointPool
from host.calls.answer import answer
from host.calls.call import Call
from host.calls.check import EXECUTE_TOOL, OBJECTIVE_TOOL, check
from host.calls.place import place
from host.calls.record import recording
from host.calls.registry import ToolRegistry
from host.calls.results import ToolOutcome, success
from host.calls.run import run
from host.calls.settling import settle
from host.sessions.keys import SessionKey, key_of
from host.sessions.manager import SessionManager
from host.sessions.navigation import NavigationPolicy
from host.sessions.selfguard import SelfGuard
from host.sessions.targets import set_test_id_attribute
from host.settings.caps import CAPS
from host.settings.config import HostConfig
from host.settings.limits import check_tool_name
from host.shared.errors import HostError
from host.trails.recorder import Recorder

log = logging.getLogger(__name__)


class Host:
    """Runs tools for callers identified by a session key.

    Guarantees: `call` never raises for anything a caller did or a browser did: unknown tools,
    bad or oversized arguments, Playwright failures, timeouts, crashed tabs, browsers and
    drivers, too many sessions all come back as a failed `ToolOutcome` with a code. Every call is
    answered by its deadline (the navigation timeout, or the call's own `timeout` if longer, plus
    5 s): past it the call is abandoned (a pending navigation and a script looping in the page
    are stopped, a tab that still does not answer is replaced) and the session's next call runs.
    A tab is never replaced for a timeout of Playwright's: a navigation that timed out is stopped
    and the tab stays where it was; only a tab that is gone (closed, crashed) or blocked past a
    call's whole deadline is replaced. Each call runs on the current
    tab of the key's own session, after the previous call of that session finished or was
    abandoned. No page is left showing, and no result carries, a URL the navigation policy
    refuses (`url_blocked`). Results are JSON every encoder accepts. `close()` closes every
    session and the browser.
    """

    def __init__(
        self,
        config: HostConfig | None = None,
        registry: ToolRegistry | None = None,
        pool: BrowserPool | None = None,
    ) -> None:
        """`pool`: a pool made for this config already (its launch perhaps under way), which the
        host then owns; by default a new one."""
        self.config = config or HostConfig()
        set_test_id_attribute(self.config.test_id_attribute)
        self.registry = registry or ToolRegistry(self.config.generated_dir)
        self.policy = NavigationPolicy.allowing(self.config.file_dirs)
        self.guard = SelfGuard(self.config.guarded_ports)
        self.pool = pool or BrowserPool(self.config)
        if self.config.enable_execute:
            self.pool.on_cdp_port.append(self.guard.add)
            if self.pool.cdp_port is not None:  # a browser the pool launched before this host
                self.guard.add(self.pool.cdp_port)
        self.endpoints = EndpointPool(self.config, self.pool)
        self.sessions = SessionManager(self.config, self.pool, self.guard, self.endpoints)
        self.recorder: Recorder | None = None
        if self.config.record is not None:
            self.recorder = Recorder(self.config.record, self.config.record_per_caller)
        self._reaper: asyncio.Task[None] | None = None
        self._warming: asyncio.Future[None] | None = None
        self.closed = False

    async def __aenter__(self) -> Host:
        await self.start()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def start(self) -> None:
        if self._reaper is None:
            self._reaper = asyncio.create_task(self.sessions.run_reaper())
            self.endpoints.connect_soon()

    def warm(self, key: SessionKey | None = None) -> asyncio.Future[None]:
        """Start the browser now, in the background, and with `key` that key's session too, so
        that the first call finds them ready or on their way instead of starting them. The
        future returned ends when they are ready or failed; no one needs to wait for it.

        Nothing is reported here: a launch that fails is reported to the call that needs the
        browser, exactly as when it is launched on demand (the pool answers calls in the next
        two seconds with that failure, then tries again; a call that arrives while the launch
        runs waits for it, within its own deadline). Calling it again starts nothing more.
        """
        if self._warming is None:
            self._warming = asyncio.ensure_future(self._warm(key))
        return self._warming

    async def _warm(self, key: SessionKey | None) -> None:
        if self.closed:
            return
        try:
            if key is None:
                await self.pool.browser()
            else:
                await self.sessions.prepare(key)
        except Exception as error:  # the first call that needs the browser reports it
            log.info("starting the browser ahead of the first call failed: %s", error)

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
            with contextlib.suppress(BaseException):
                await self._warming
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
        await self.sessions.close_all()
        await self.registry.close_tools()
        await self.endpoints.close()
        if self.recorder is not None:
            self.recorder.close()

    async def end_session(
        self, key: SessionKey | str, reason: str = "the client disconnected"
    ) -> None:
        """Close the session of `key` and its webBrowser agents' (its transport connection ended)."""
        await self.sessions.drop_family(key_of(key), reason)

    def offered(self, enabled: frozenset[str]) -> frozenset[str]:
        """`enabled` without the tools this host's configuration switches off (playwright_execute
        unless `enable_execute`): what a transport may list."""
        if not self.config.enable_execute:
            enabled = enabled - {EXECUTE_TOOL}
        if self.recorder is None:
            enabled = enabled - {OBJECTIVE_TOOL}  # listed only while recording
        on = set(self.config.caps)
        for cap, tools in CAPS.items():  # a capability's tools: listed exactly when it is on
            enabled = enabled | set(tools) if cap in on else enabled - set(tools)
        return enabled

    async def call(
        self,
        key: SessionKey | str,
        name: str,
        args: object,
        *,
        enabled: frozenset[str] | None = None,
    ) -> ToolOutcome:
        """Run tool `name` (or a former name of it) with JSON `args` in the session of `key`;
        `enabled` limits the tools. The outcome names the tool as the caller did. With
        `--secrets`, every secret value in the outcome (result, error, notes) shows as its
        `${NAME}`.

        The steps, in order; each refuses the call with a `HostError` that becomes its outcome.
        """
        try:
            check_tool_name(name)
        except HostError as error:
            return ToolOutcome.failure("", error)
        call = Call(self.registry.resolve(name), key_of(key), args)
        try:
            check(self, call, enabled)  # before any browser work
            async with place(self, call) as session, recording(self, call, session) as trail:
                value = await run(self, call, session)
                value = await settle(self, call, session, value)
                outcome = success(call.descriptor, value, call.args, self.config.max_result_bytes)
                await trail.keep(outcome)
        except HostError as error:
            outcome = ToolOutcome.failure(call.tool, error)
        return answer(call, outcome, name, self.config.secrets)

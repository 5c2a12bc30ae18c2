"""The host: sessions, browser and registry behind one `call(session_key, tool, args)`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from types import TracebackType
from typing import Any, NoReturn, cast

from playwright.async_api import Error as PlaywrightError

from host.browsers.browser import BrowserPool
from host.browsers.endpoints import EndpointPool
from host.calls.registry import CallContext, Runner, ToolRegistry
from host.calls.result_caps import MAX_RESULT_DEPTH, bound_arguments, guarded, refused
from host.calls.results import Image, Rendered, ToolOutcome
from host.sessions.keys import SessionKey, key_of
from host.sessions.manager import SessionManager
from host.sessions.navigation import NavigationPolicy
from host.sessions.selfguard import SelfGuard
from host.sessions.session import Session, Tab, describe_dialog
from host.sessions.settle import ActionWatch
from host.sessions.tab_control import is_gone, stop_navigation, stop_scripts
from host.sessions.targets import runs_a_regex, set_test_id_attribute
from host.settings.caps import CAP_OF, CAPS
from host.settings.config import HostConfig
from host.settings.limits import check_arguments, check_tool_name, execute_timeout, json_safe
from host.settings.secrets_file import Secrets
from host.shared.descriptors import ToolDescriptor
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue
from host.trails.code import NotExportable, line_for
from host.trails.recorder import Prepared, Recorder

log = logging.getLogger(__name__)

# Tools that still run while a dialog blocks the current tab (they answer it or only read buffers).
DIALOG_SAFE = frozenset(
    {
        "browser_handle_dialog",
        "browser_tabs",
        "browser_console_messages",
        "browser_network_requests",
        "browser_network_request",
        "browser_route_list",
        "browser_close",
    }
)
# Generated tools that open a URL a caller names (the host's own tools check theirs themselves).
NAVIGATING_ARGUMENTS = {"web_navigate": "url"}
# Generated tools that close the current tab on the caller's behalf.
CLOSING_TOOLS = frozenset({"web_close", "browser_close"})

EXECUTE_TOOL = "browser_execute_python"
OBJECTIVE_TOOL = "browser_objective"
MAX_TIMEOUT_MS = 300_000
"""The largest `timeout` a tool's schema accepts (its `maximum`); a call's deadline follows it."""
_PROBE_S = 3.0
# Playwright's navigating methods, as its errors name them: a timeout of one leaves the
# navigation pending in the browser.
_NAVIGATIONS = re.compile(r"(?:Page|Frame)\.(?:goto|reload|go_back|go_forward):")
_SNAPSHOTS = re.compile(r"(?:Page|Frame|Locator)\.aria_snapshot:")


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

    def deadline_s(self, args: object, tool: str) -> float:
        """How long a call may take, from its arrival to its answer."""
        limit = self.config.navigation_timeout
        if tool == EXECUTE_TOOL:
            limit = max(limit, execute_timeout(args) + 10.0)
        if isinstance(args, dict):
            timeout = args.get("timeout")
            if isinstance(timeout, int | float) and not isinstance(timeout, bool) and timeout > 0:
                limit = max(limit, min(timeout, MAX_TIMEOUT_MS) / 1000)
        return limit + 5.0

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
        `${NAME}`."""
        session_key = key_of(key)
        try:
            check_tool_name(name)
        except HostError as error:
            return ToolOutcome.failure("", error)
        outcome = await self._call(session_key, self.registry.resolve(name), args, enabled)
        outcome.tool = name
        if self.config.secrets:
            _scrub(outcome, self.config.secrets)
        return outcome

    async def _call(
        self, session_key: SessionKey, name: str, args: object, enabled: frozenset[str] | None
    ) -> ToolOutcome:
        if self.closed:
            return ToolOutcome.failure(
                name, HostError("shutting_down", "the host is shutting down")
            )
        if name == EXECUTE_TOOL and not self.config.enable_execute:
            return ToolOutcome.failure(
                name,
                HostError(
                    "tool_disabled",
                    "browser_execute_python is off on this host (it runs arbitrary Python); the "
                    "operator enables it by starting the host with --enable-execute",
                ),
            )
        cap = CAP_OF.get(name)
        if cap is not None and cap not in self.config.caps:
            return ToolOutcome.failure(
                name,
                HostError(
                    "tool_disabled",
                    f"{name} comes with the {cap!r} capability, which is off on this host; the "
                    f"operator turns it on by starting the host with --caps {cap}",
                ),
            )
        limit = self.config.max_result_bytes
        try:
            check_arguments(args, self.config.argument_limits)
            descriptor = self.registry.lookup(name, enabled)
            try:  # @playwright/mcp's argument names, accepted as ours (never listed)
                args, described = descriptor.accept_peer_arguments(args)
                args = self.registry.peer_shaped(descriptor, args)
            except ValueError as problem:
                where, _, message = str(problem).partition(": ")
                raise HostError("invalid_argument", message, path=where) from None
            run_args = args
            if descriptor.origin == "generated":
                run_args = bound_arguments(name, args, limit, MAX_RESULT_DEPTH)
            runner = guarded(name, args, self.registry.prepare(descriptor, run_args), limit)
            self._check_urls(descriptor, args)
        except HostError as error:
            return ToolOutcome.failure(name, error)
        if descriptor.session_param and isinstance(args, dict):
            sub = args.get(descriptor.session_param)
            session_key = session_key.sub(sub if isinstance(sub, str) and sub else "default")
        budget = self.deadline_s(args, name)
        deadline = asyncio.get_running_loop().time() + budget
        try:
            async with asyncio.timeout_at(deadline):
                session, restarted = await self.sessions.acquire(session_key, budget)
        except HostError as error:
            return ToolOutcome.failure(name, error)
        except TimeoutError:
            return ToolOutcome.failure(
                name,
                HostError(
                    "browser_unavailable",
                    f"no browser session could be started within the call's {budget:g} s; "
                    "call again",
                ),
            )
        except PlaywrightError as error:
            return ToolOutcome.failure(
                name,
                HostError(
                    "browser_unavailable",
                    f"no browser session could be started: {_first_line(error)}",
                ),
            )
        extras: JsonObject = {}
        if restarted is not None:
            extras["session"] = {
                "new": True,
                "reason": f"{restarted}; this call ran in a new session",
            }
        session.busy += 1
        try:
            outcome = await self._call_in(
                session, descriptor, runner, args, deadline, budget, described
            )
        finally:
            session.busy -= 1
            session.last_used = time.monotonic()
        if session.notes:
            extras["notes"] = json_safe(session.take_notes())
        if session.open_dialogs:
            extras["dialogs"] = json_safe(
                [
                    {**describe_dialog(d), "tab": session.index_of(d.page)}
                    for d in session.open_dialogs
                ]
            )
        if session.interrupted_by_dialog:
            session.interrupted_by_dialog = False
            extras["interrupted"] = (
                "a dialog opened while the call ran and is waiting for an answer; the call goes on "
                "once browser_handle_dialog answers it"
            )
        if session.ended is not None and self.sessions.get(session.key) is session:
            extras["session"] = {
                "ended": True,
                "reason": f"{session.ended}; the next call starts a new session",
            }
            await self.sessions.drop(session.key)
        if extras:
            outcome.extras.update(extras)
        if described and outcome.error is not None:  # the caller's words for the element
            names = "; ".join(f"{k} {v[:200]!r}" for k, v in described.items())
            outcome.error.message += f" ({names})"
        return outcome

    async def _call_in(
        self,
        session: Session,
        descriptor: ToolDescriptor,
        runner: Runner,
        args: object,
        deadline: float,
        budget: float,
        described: dict[str, str] | None = None,
    ) -> ToolOutcome:
        """The call, once it holds the session: waits for the earlier call no longer than its own
        deadline allows. `described`: the caller's descriptions of elements (`element`), kept in
        the trail beside the call's arguments."""
        try:
            async with asyncio.timeout_at(deadline):
                await session.lock.acquire()
        except TimeoutError:
            return ToolOutcome.failure(
                descriptor.name,
                HostError(
                    "timeout",
                    f"the session was still busy with an earlier call for this call's whole "
                    f"{budget:g} s",
                ),
            )
        try:
            if session._repairs:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout_at(deadline):
                        await session.settle()
            await self._restore_landings(session)
            session.closing_intent = descriptor.name in CLOSING_TOOLS
            recorded = {**args, **described} if described and isinstance(args, dict) else args
            reading = await self._start_record(session, descriptor, recorded)
            try:
                value = await self._run(session, descriptor, runner, args, deadline, budget)
            except BaseException:
                if reading is not None:
                    reading.cancel()
                    reading.add_done_callback(_retrieve)
                raise
            if value is not None and session.watch is not None:
                await session.watch.settle()  # an action whose result was not page feedback
            prepared = await self._finish_record(session, reading, deadline)
            await self._check_landings(session)
            await session.settle_downloads(self.config.download_wait)
            if value is None and descriptor.feedback and session.ended is None:
                from host.calls.feedback import page_feedback

                value = await page_feedback(session)
            outcome = self._success(descriptor, value, args)
            if prepared is not None and outcome.ok:
                self._record(session, descriptor, prepared, outcome)
            return outcome
        except HostError as error:
            return ToolOutcome.failure(descriptor.name, error)
        finally:
            session.closing_intent = False
            if session.watch is not None:
                session.watch.stop()
                session.watch = None
            session.lock.release()

    async def _start_record(
        self, session: Session, descriptor: ToolDescriptor, args: object
    ) -> asyncio.Task[Prepared] | None:
        """Start reading what the trail will hold for this call (the stable locator a ref
        resolves to, whether a value goes into a password field), before the call's own work:
        its requests reach the page first, so it reads the page as the call found it, and it runs
        alongside the call instead of before it. None when nothing is recorded (and `--codegen`
        is off). A ref not in the tab's snapshot fails here, as the call itself would."""
        if not descriptor.is_recordable or (self.recorder is None and not self.config.codegen):
            return None
        tab = session.current
        if tab is None:
            return None
        Recorder.check_refs(tab, args)
        reading = asyncio.ensure_future(Recorder.prepare(tab, descriptor, args))
        for _ in range(2):  # let its first requests go out ahead of the call's
            await asyncio.sleep(0)
        return reading

    async def _finish_record(
        self, session: Session, reading: asyncio.Task[Prepared] | None, deadline: float
    ) -> Prepared | None:
        if reading is None:
            return None
        remaining = max(0.5, deadline - asyncio.get_running_loop().time())
        try:
            prepared = await asyncio.wait_for(reading, min(remaining, 10.0))
            tab = session.current
            return prepared if tab is None else await Recorder.after_call(tab, prepared)
        except HostError as error:
            detail = error.message
        except TimeoutError:
            detail = "the page did not say which stable locator the target has in time"
        except Exception as error:
            detail = f"the target could not be resolved to a stable locator ({_first_line(error)})"
        session.note(
            {"event": "not_recorded", "detail": f"{detail}; this call is not in the trail"}
        )
        return None

    def _record(
        self, session: Session, descriptor: ToolDescriptor, prepared: Prepared, outcome: ToolOutcome
    ) -> None:
        if self.recorder is not None:
            self.recorder.commit(session.key, descriptor.name, prepared)
            for note in prepared.notes:
                session.note({"event": "recorded", "detail": note})
        if self.config.codegen:
            try:
                code = line_for(
                    descriptor.name, prepared.arguments, self.config.codegen, descriptor
                )
            except NotExportable:
                return
            outcome.extras["code"] = code

    def _check_urls(self, descriptor: ToolDescriptor, args: object) -> None:
        """Refuse a URL argument the navigation policy would not open (before any browser work)."""
        if not isinstance(args, dict):
            return
        names = list(descriptor.navigates)
        generated = NAVIGATING_ARGUMENTS.get(descriptor.name)
        if generated is not None and descriptor.origin == "generated":
            names.append(generated)
        for name in names:
            value = args.get(name)
            if value == "" and descriptor.name == "browser_navigate":
                continue  # a no-op, as @playwright/mcp's (the tool answers where the page is)
            if isinstance(value, str) and value not in ("back", "forward", "reload"):
                self.policy.check_open(value, path=name)

    async def _restore_landings(self, session: Session) -> None:
        """Before a call: a tab some frame of which shows a refused URL is taken away from it."""
        for tab, url in session.blocked_frames():
            session.note({"event": "url_blocked", "detail": self.policy.landed_refusal(url)})
            await session.take_away(tab)
        session.blocked_landing = None

    async def _check_landings(self, session: Session) -> None:
        """After a call: if a page went somewhere the policy refuses, the call's result is
        dropped, the page taken away from it, and the call fails with `url_blocked`."""
        blocked = session.blocked_frames()
        landed = session.blocked_landing or (blocked[0][1] if blocked else None)
        session.blocked_landing = None
        if landed is None:
            return
        for tab, _ in blocked:
            await session.take_away(tab)
        await session.settle()
        raise HostError(
            "url_blocked",
            f"{self.policy.landed_refusal(landed)}; the tab was taken back to about:blank and "
            "the call's result was dropped",
        )

    async def _run(
        self,
        session: Session,
        descriptor: ToolDescriptor,
        runner: Runner,
        args: object,
        deadline: float,
        budget: float,
    ) -> object:
        tab = session.current
        if tab is None or session.ended is not None:
            raise HostError(
                "session_ended",
                f"{session.ended or 'the session has no tab'}; call again to start a new session",
            )
        if descriptor.name not in DIALOG_SAFE:
            dialog = session.blocking_dialog()
            if dialog is not None:
                raise HostError(
                    "dialog_open",
                    f"a {dialog.type} dialog is open on the current tab ({dialog.message[:200]!r}); "
                    "answer it with browser_handle_dialog first",
                )
        session.interrupted_by_dialog = False
        if descriptor.settles and descriptor.feedback:
            session.watch = ActionWatch(session, self.config.settle_timeout, deadline)
        work = asyncio.ensure_future(runner(CallContext(session, tab, self.config, self.recorder)))
        session.inflight = work
        try:
            remaining = deadline - asyncio.get_running_loop().time()
            done, _ = await asyncio.wait({work}, timeout=max(0.0, remaining))
        except asyncio.CancelledError:
            work.cancel()  # the caller went away: the call goes with it
            raise
        finally:
            session.inflight = None
        if work not in done:
            await self._abandon(session, tab, work)
            raise HostError(
                "timeout",
                f"the call did not finish within {budget:g} s and was abandoned (a script "
                "still running in the page was stopped); the session answers the next call",
            )
        if work.cancelled():
            if session.interrupted_by_dialog:
                return None
            raise HostError("cancelled", "the call was cancelled")
        error = work.exception()
        if error is None:
            return work.result()
        too_large = refused(error, self.config.max_result_bytes)
        if too_large is not None:
            raise too_large
        if isinstance(error, HostError):
            raise error
        if isinstance(error, PlaywrightError):
            regex_at = _regex_target(args) if "Timeout" in _first_line(error) else None
            if regex_at is not None and not is_gone(session, tab):
                # Playwright's timeout ends the call, not the regular expression: one that
                # backtracks without end holds the page's main thread for every later call.
                await stop_scripts(tab)
                raise HostError(
                    "timeout",
                    f"no element matched in time ({_first_line(error)}); the target's regular "
                    "expression was stopped in the page (one that backtracks without end blocks "
                    "it); write a simpler one, or give text",
                    path=regex_at,
                ) from None
            raise await self._classify(session, tab, error) from None
        await self._other_failure(session, error)

    def _lost(self, session: Session, loss: str) -> HostError | None:
        """With several endpoints, the error of a call whose endpoint was lost (None: one)."""
        if not self.endpoints.several:
            return None
        message = self.sessions.lost_message(session, loss)
        session.ended = message
        session.lost_told = True
        return HostError("browser_lost", message)

    async def _other_failure(self, session: Session, error: BaseException) -> NoReturn:
        loss = await self.sessions.pool_of(session).gone_after(_patience(error))
        if loss is not None:
            lost = self._lost(session, loss)
            if lost is not None:
                raise lost
            session.ended = f"{loss}; it was relaunched"
            raise HostError(
                "driver_crashed" if "driver" in loss else "browser_crashed",
                f"{loss} while the call ran; the next call starts a new session in a relaunched browser",
            )
        code = getattr(error, "code", None)
        if isinstance(code, str):  # the generated package's ToolError: an argument found wrong late
            detail = str(getattr(error, "detail", error))
            raise HostError(code, _clip(detail), path=str(getattr(error, "path", "")))
        # an argument Playwright rejects in its own way
        raise HostError("call_failed", f"{type(error).__name__}: {_clip(str(error))}")

    async def _abandon(self, session: Session, tab: Tab, work: asyncio.Future[object]) -> None:
        """A call past its deadline: cancel it, give Playwright a moment to let go, stop what it
        left running in the tab (a pending navigation, a script looping in the page), and replace
        the tab only if it still does not answer: it is then blocked outside any script (a
        synchronous request that is never answered) and would hold every later call."""
        work.cancel()
        await asyncio.wait({work}, timeout=self.config.abandon_grace)
        if not work.done():
            work.add_done_callback(_retrieve)  # abandoned: it ends whenever Playwright lets go
        if self.sessions.pool_of(session).gone() is not None or is_gone(session, tab):
            return
        await stop_navigation(tab)
        await stop_scripts(tab)
        await self._probe(session, tab, "tab_hung")

    async def _probe(self, session: Session, tab: Tab, event: str) -> None:
        """Replace `tab` by a new blank one at once if, its navigation and scripts stopped, it
        still does not answer within `_PROBE_S`. Only an abandoned call comes here: the call's
        whole deadline passed first."""
        if is_gone(session, tab):
            return
        try:
            async with asyncio.timeout(_PROBE_S):
                await tab.page.evaluate("1")
        except Exception:
            if not is_gone(session, tab):
                log.warning("a tab stopped answering; it is replaced")
                tab.crashed = True
                await session._replace(tab, event=event)

    async def _classify(self, session: Session, tab: Tab, error: PlaywrightError) -> HostError:
        message = _first_line(error)
        pool = self.sessions.pool_of(session)
        loss = await pool.gone_after(_patience(error))
        if loss is not None or session.generation != pool.generation:
            loss = loss or pool.last_loss or "the browser exited"
            lost = self._lost(session, loss)
            if lost is not None:
                return lost
            session.ended = f"{loss}; it was relaunched"
            code = "driver_crashed" if "driver" in loss else "browser_crashed"
            return HostError(
                code,
                f"{loss} while the call ran; the next call starts a new session in a relaunched browser "
                f"({message})",
            )
        if tab.crashed or "crash" in message.lower():
            session.mark_crashed(tab)
            return HostError(
                "tab_crashed",
                "the tab crashed while the call ran; it is replaced by a new blank tab at the same "
                f"index (see browser_tabs) ({message})",
            )
        if session.ended is not None:
            return HostError("session_ended", f"{session.ended} while the call ran ({message})")
        if "Timeout" in message and _SNAPSHOTS.match(message) and not is_gone(session, tab):
            await stop_scripts(tab)  # Playwright leaves the snapshot's script running in the page
        if "Timeout" in message and _NAVIGATIONS.match(message) and not is_gone(session, tab):
            # The navigation is still pending in the browser, which holds every later command
            # for the page until it commits (a page that called window.close() meanwhile is not
            # closed either): stop it, and the tab stays on the page it showed. A timeout is no
            # sign that a tab is gone, so it is never replaced for one.
            await stop_navigation(tab)
            if not is_gone(session, tab):
                return HostError(
                    "timeout",
                    f"the navigation did not finish in time ({message}); it was stopped and the "
                    f"tab stays on {_clip(tab.page.url, 300)}; call again with a longer timeout "
                    "if the server is slow",
                )
        if _patience(error) or "detached" in message:
            # The page's close event can trail the failure it caused.
            give_up = time.monotonic() + 2.0
            while tab in session.tabs and time.monotonic() < give_up:
                await asyncio.sleep(0.05)
        if tab not in session.tabs:
            return HostError(
                "tab_closed",
                f"the tab was closed while the call ran; the next call runs on the current tab "
                f"(see browser_tabs) ({message})",
            )
        return HostError("playwright_error", _clip(str(error.message)))

    def _success(self, descriptor: ToolDescriptor, value: object, args: object) -> ToolOutcome:
        limit = self.config.max_result_bytes
        if isinstance(value, str):
            size = len(value)
        elif isinstance(value, dict | list):
            size = len(json.dumps(value, ensure_ascii=False, default=str))
        else:
            size = 0
        if size > limit:
            raise HostError(
                "result_too_large",
                f"the result has {size} bytes, more than the host's limit of {limit}; ask for less "
                "(a selector, a clip, a smaller page)",
            )
        json_value = json_safe(value)
        if isinstance(value, Rendered) and isinstance(json_value, dict):
            json_value = Rendered(json_value, json_safe(value.text), spread=value.spread)  # type: ignore[arg-type]
        outcome = ToolOutcome(tool=descriptor.name, ok=True, value=json_value)
        if isinstance(json_value, Rendered):
            outcome.display = json_value.text
            outcome.spread = json_value.spread
        if isinstance(value, Image):
            outcome.value = value
            outcome.image_mime = value.mime
            return outcome
        schema = descriptor.returns.get("schema")
        if (
            isinstance(value, str)
            and isinstance(schema, dict)
            and schema.get("contentEncoding") == "base64"
            and "screenshot" in descriptor.name.lower()
        ):
            kind = args.get("type") if isinstance(args, dict) else None
            outcome.image_mime = "image/jpeg" if kind == "jpeg" else "image/png"
        return outcome


def _scrub(outcome: ToolOutcome, secrets: Secrets) -> None:
    """Show every secret value in `outcome` as its `${NAME}` (what a transport, a log or a trail
    takes from it)."""
    outcome.value = cast(JsonValue, secrets.scrub_json(outcome.value))
    if outcome.display is not None:
        outcome.display = secrets.scrub(outcome.display)
    outcome.extras = cast(JsonObject, secrets.scrub_json(outcome.extras))
    if outcome.details is not None:
        outcome.details = cast(JsonObject, secrets.scrub_json(outcome.details))
    error = outcome.error
    if error is not None:
        error.message = secrets.scrub(error.message)
        if error.path is not None:
            error.path = secrets.scrub(error.path)
        if error.details is not None:
            error.details = cast(JsonObject, secrets.scrub_json(error.details))


def _regex_target(args: object) -> str | None:
    """The argument naming a target (a selector, locator code) whose regular expression runs in
    the page, if any."""
    if not isinstance(args, dict):
        return None
    for name, value in args.items():
        if (
            isinstance(value, str)
            and name.lower().endswith(("target", "selector", "ref"))
            and runs_a_regex(value)
        ):
            return str(name)
    return None


_CLOSED_WORDS = ("closed", "crash", "disconnected", "connection", "detached")


def _patience(error: BaseException) -> float:
    """How long to wait for a browser's disconnect to show after `error`: a moment when the error
    says something closed, else not at all."""
    text = str(getattr(error, "message", None) or error).lower()
    return 3.0 if any(word in text for word in _CLOSED_WORDS) else 0.0


def _retrieve(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _first_line(error: BaseException) -> str:
    text = getattr(error, "message", None) or str(error)
    return _clip(
        str(text).strip().splitlines()[0] if str(text).strip() else type(error).__name__, 500
    )


def _clip(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[:limit] + "..."

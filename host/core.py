"""The host: sessions, browser and registry behind one `call(session_key, tool, args)`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from types import TracebackType

from playwright.async_api import Error as PlaywrightError

from host.browser import BrowserPool
from host.config import HostConfig
from host.descriptors import ToolDescriptor
from host.errors import HostError
from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext, Runner, ToolRegistry
from host.results import Image, Rendered, ToolOutcome
from host.session import Session, Tab, describe_dialog
from host.sessions import SessionManager

# Tools that still run while a dialog blocks the current tab (they answer it or only read buffers).
DIALOG_SAFE = frozenset(
    {
        "web_handle_dialog",
        "web_tabs",
        "web_console_messages",
        "web_network_requests",
        "web_route_list",
    }
)


EXECUTE_TOOL = "playwright_execute"
EXECUTE_DEFAULT_SEC = 60.0
EXECUTE_MAX_SEC = 300.0


def execute_timeout(args: object) -> float:
    """`playwright_execute`'s `timeout_sec`: default 60; below 1 s the default; above 300, 300."""
    value = args.get("timeout_sec") if isinstance(args, dict) else None
    if not isinstance(value, int | float) or isinstance(value, bool) or value < 1:
        return EXECUTE_DEFAULT_SEC
    return min(float(value), EXECUTE_MAX_SEC)


class Host:
    """Runs tools for callers identified by a session key.

    Guarantees: `call` never raises for anything a caller did or a browser did: unknown tools,
    bad arguments, Playwright failures, timeouts, crashed tabs and browsers, too many sessions all
    come back as a failed `ToolOutcome` with a code. Each call runs on the current tab of the key's
    own session, after the previous call of that session finished, and within the navigation
    timeout (plus a margin). `close()` closes every session and the browser.
    """

    def __init__(
        self, config: HostConfig | None = None, registry: ToolRegistry | None = None
    ) -> None:
        self.config = config or HostConfig()
        self.registry = registry or ToolRegistry(self.config.generated_dir)
        self.pool = BrowserPool(self.config)
        self.sessions = SessionManager(self.config, self.pool)
        self._reaper: asyncio.Task[None] | None = None
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

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
        await self.sessions.close_all()
        if self.config.enable_execute:
            from host.execute import shutdown

            await shutdown()
        await self.pool.close()

    async def end_session(self, key: str, reason: str = "the client disconnected") -> None:
        """Close the session of `key` and its webBrowser agents' (its transport connection ended)."""
        await self.sessions.drop_family(key, reason)

    def offered(self, enabled: frozenset[str]) -> frozenset[str]:
        """`enabled` without the tools this host's configuration switches off (playwright_execute
        unless `enable_execute`): what a transport may list."""
        return enabled if self.config.enable_execute else enabled - {EXECUTE_TOOL}

    async def call(
        self, key: str, name: str, args: object, *, enabled: frozenset[str] | None = None
    ) -> ToolOutcome:
        """Run tool `name` with JSON `args` in the session of `key`; `enabled` limits the tools."""
        if self.closed:
            return ToolOutcome.failure(
                name, HostError("shutting_down", "the host is shutting down")
            )
        if name == EXECUTE_TOOL and not self.config.enable_execute:
            return ToolOutcome.failure(
                name,
                HostError(
                    "tool_disabled",
                    "playwright_execute is off on this host (it runs arbitrary Python); the "
                    "operator enables it by starting the host with --enable-execute",
                ),
            )
        try:
            descriptor = self.registry.lookup(name, enabled)
            runner = self.registry.prepare(descriptor, args)
            if descriptor.session_param and isinstance(args, dict):
                sub = args.get(descriptor.session_param)
                key = f"{key}/agent:{sub if isinstance(sub, str) and sub else 'default'}"
            session, restarted = await self.sessions.acquire(key)
        except HostError as error:
            return ToolOutcome.failure(name, error)
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
            async with session.lock:
                if session._repairs:
                    await session.settle()
                value = await self._run(session, descriptor, runner, args)
                if value is None and descriptor.feedback and session.ended is None:
                    from host.feedback import page_feedback

                    value = await page_feedback(session)
            outcome = self._success(descriptor, value, args)
        except HostError as error:
            outcome = ToolOutcome.failure(name, error)
        finally:
            session.busy -= 1
            session.last_used = time.monotonic()
        if session.notes:
            extras["notes"] = session.take_notes()
        if session.open_dialogs:
            extras["dialogs"] = [
                {**describe_dialog(d), "tab": session.index_of(d.page)}
                for d in session.open_dialogs
            ]
        if session.interrupted_by_dialog:
            session.interrupted_by_dialog = False
            extras["interrupted"] = (
                "a dialog opened while the call ran and is waiting for an answer; the call goes on "
                "once web_handle_dialog answers it"
            )
        if session.ended is not None and self.sessions.get(key) is session:
            extras["session"] = {
                "ended": True,
                "reason": f"{session.ended}; the next call starts a new session",
            }
            await self.sessions.drop(key)
        if extras:
            outcome.extras.update(extras)
        return outcome

    async def _run(
        self, session: Session, descriptor: ToolDescriptor, runner: Runner, args: object
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
                    "answer it with web_handle_dialog first",
                )
        task = asyncio.current_task()
        session.inflight = task
        session.interrupted_by_dialog = False
        try:
            async with asyncio.timeout(self._time_limit(args, descriptor.name)):
                return await runner(CallContext(session, tab, self.config))
        except asyncio.CancelledError:
            if session.interrupted_by_dialog and task is not None and task.uncancel() == 0:
                return None
            raise
        except TimeoutError:
            raise HostError(
                "timeout",
                f"the call did not finish within {self._time_limit(args, descriptor.name):g} s",
            ) from None
        except HostError:
            raise
        except PlaywrightError as error:
            raise self._classify(session, tab, error) from None
        except Exception as error:
            code = getattr(error, "code", None)
            if isinstance(
                code, str
            ):  # the generated package's ToolError: an argument found wrong late
                detail = str(getattr(error, "detail", error))
                raise HostError(code, _clip(detail), path=str(getattr(error, "path", ""))) from None
            # an argument Playwright rejects in its own way
            raise HostError("call_failed", f"{type(error).__name__}: {_clip(str(error))}") from None
        finally:
            session.inflight = None

    def _time_limit(self, args: object, tool: str) -> float:
        limit = self.config.navigation_timeout
        if tool == EXECUTE_TOOL:
            limit = max(limit, execute_timeout(args) + 10.0)
        if isinstance(args, dict):
            timeout = args.get("timeout")
            if isinstance(timeout, int | float) and not isinstance(timeout, bool) and timeout > 0:
                limit = max(limit, timeout / 1000)
        return limit + 5.0

    def _classify(self, session: Session, tab: Tab, error: PlaywrightError) -> HostError:
        message = _first_line(error)
        if self.pool.connected is None or session.generation != self.pool.generation:
            session.ended = "the browser exited; it was relaunched"
            return HostError(
                "browser_crashed",
                "the browser exited while the call ran; the next call starts a new session in a "
                f"relaunched browser ({message})",
            )
        if tab.crashed or "crash" in message.lower():
            session.mark_crashed(tab)
            return HostError(
                "tab_crashed",
                "the tab crashed while the call ran; it is replaced by a new blank tab at the same "
                f"index (see web_tabs) ({message})",
            )
        if session.ended is not None:
            return HostError("session_ended", f"{session.ended} while the call ran ({message})")
        return HostError("playwright_error", _clip(str(error.message)))

    def _success(self, descriptor: ToolDescriptor, value: object, args: object) -> ToolOutcome:
        json_value: JsonValue = value  # type: ignore[assignment]
        limit = self.config.max_result_bytes
        if isinstance(value, str):
            size = len(value)
        elif isinstance(value, dict | list):
            size = len(json.dumps(value, ensure_ascii=False))
        else:
            size = 0
        if size > limit:
            raise HostError(
                "result_too_large",
                f"the result has {size} bytes, more than the host's limit of {limit}; ask for less "
                "(a selector, a clip, a smaller page)",
            )
        outcome = ToolOutcome(tool=descriptor.name, ok=True, value=json_value)
        if isinstance(value, Rendered):
            outcome.display = value.text
            outcome.spread = value.spread
        if isinstance(value, Image):
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


def _first_line(error: BaseException) -> str:
    text = getattr(error, "message", None) or str(error)
    return _clip(
        str(text).strip().splitlines()[0] if str(text).strip() else type(error).__name__, 500
    )


def _clip(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[:limit] + "..."

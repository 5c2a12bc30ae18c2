"""The plumbing of one executor action: its session key, deadline and state, and every browser
step as a tool call through the host (`Host.call`), whose failures become the executor's own
errors (`ExecutorError`: a crashed browser or driver, a refused URL, a timeout, a failed step).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from playwright.async_api import Page

from host.calls.core import Host
from host.executor.ahead import CountsAhead
from host.executor.errors import ExecutorError
from host.executor.payload import Action
from host.executor.pii import SelectorPrivacy
from host.executor.redaction import Redactor
from host.executor.settings import ExecutorSettings
from host.executor.urlpolicy import UrlPolicy
from host.sessions.keys import SessionKey
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

_DISCONNECT_PATIENCE_S = 3.0
"""How long a failure that looks like a closed browser waits for the disconnect to show."""


@dataclass
class Attempt:
    """One try of one selector for one step, and what came of it."""

    step: str
    attempt: int
    selector: str
    outcome: str
    """`done`, `not_found`, `ambiguous` (more than one element), `invalid_selector`, `failed`."""
    delay_ms: int = 0
    matched: int | None = None
    detail: str | None = None


@dataclass
class StepState:
    """A field or the submit: what was asked, which selector did it, whether it was done."""

    selector: str
    used: str | None = None
    done: bool = False


class ActionCalls:
    """One action's state and its tool calls.

    Guarantees: `call` returns a tool's value or raises `ExecutorError` (never a host error), and
    a call that ran in a session other than the action's own (its browser gone) is refused
    rather than acting on the wrong page; `remaining_ms` never exceeds the action's deadline.
    """

    def __init__(
        self,
        host: Host,
        settings: ExecutorSettings,
        privacy: SelectorPrivacy,
        policy: UrlPolicy,
        action: Action,
        redactor: Redactor,
        action_id: str,
        deadline: float | None = None,
        next_session: Callable[[], None] | None = None,
    ) -> None:
        self.host = host
        self.settings = settings
        self.privacy = privacy
        self.policy = policy
        self.action = action
        self.redactor = redactor
        self.id = action_id
        self.key = SessionKey("executor", action_id)
        self.attempts: list[Attempt] = []
        self.ahead = CountsAhead()
        self.fields = [StepState(f.selector) for f in action.fields]
        self.submit = StepState(action.submit.selector) if action.submit else None
        self.loop = asyncio.get_running_loop()
        self.deadline = deadline or self.loop.time() + action.timeout_ms / 1000
        """Loop time by which the action ends (set when the request arrived: queueing counts)."""
        self.next_session = next_session
        """Called when the action submits (and again when it reads back): the next action's
        session may be made from then on (`host.executor.prepared`)."""
        self.generation = host.pool.generation
        self.blocked_navigation = False
        self.status: int | None = None

    def remaining_ms(self) -> int:
        return max(1, int((self.deadline - self.loop.time()) * 1000))

    def step_timeout(self) -> int:
        return min(self.settings.step_timeout_ms, self.remaining_ms())

    def clean(self, selector: str) -> str:
        return self.privacy.clean(self.redactor.scrub(selector))

    async def call(self, tool: str, args: JsonObject) -> JsonValue:
        outcome = await self.host.call(self.key, tool, args)
        session_news = outcome.extras.get("session")
        if outcome.ok and session_news is None:
            return outcome.value
        if outcome.ok:
            # The session this action ran in is gone (its browser crashed, its last tab closed):
            # the call ran in a new, blank one. Going on would act on the wrong page.
            if await self._browser_gone(wait=True):
                raise self._crashed()
            raise ExecutorError("action_failed", "the action's browser session ended while it ran")
        assert outcome.error is not None
        raise await self._translate(outcome.error, tool)

    async def _browser_gone(self, *, wait: bool) -> bool:
        # The disconnect event can trail the failed call, by seconds on a loaded machine: look
        # again for a while, within the action's own deadline, before blaming something else.
        patience = min(_DISCONNECT_PATIENCE_S, self.remaining_ms() / 1000) if wait else 0.0
        give_up = self.loop.time() + patience
        while True:
            if self.host.pool.connected is None or self.host.pool.generation != self.generation:
                return True
            if self.loop.time() >= give_up:
                return False
            await asyncio.sleep(0.05)

    def _crashed(self) -> ExecutorError:
        # `gone()` looks now (and records why); after a relaunch, `last_loss` still says why.
        if (self.host.pool.gone() or self.host.pool.last_loss) == "Playwright's driver exited":
            return ExecutorError(
                "driver_crashed",
                "Playwright's driver exited while the action ran; it and the browser are started "
                "again for the next action",
            )
        return ExecutorError(
            "browser_crashed",
            "the browser exited while the action ran; it is relaunched for the next action",
        )

    async def _translate(self, error: HostError, tool: str) -> ExecutorError:
        message = self.redactor.scrub(error.message)[:500]
        lowered = message.lower()
        closed = any(w in lowered for w in ("closed", "crash", "disconnected", "target"))
        if error.code in ("browser_crashed", "driver_crashed") or await self._browser_gone(
            wait=closed
        ):
            return self._crashed()
        if error.code == "url_blocked":
            return ExecutorError("url_refused", "a page went to a URL the service does not open")
        waited_for_deadline = tool in ("web_navigate", "web_waitForLoadState")
        if error.code == "timeout" or (
            # These two wait until the action's deadline; a step (fill, click) has its own limit
            # and its timeout is a failed attempt, which drift may recover from.
            waited_for_deadline and "timeout" in lowered and "exceeded" in lowered
        ):
            return ExecutorError(
                "timeout", f"the action did not finish within {self.action.timeout_ms} ms"
            )
        if error.code == "too_many_sessions":
            return ExecutorError(
                "busy", "the service holds as many sessions as it may; retry later"
            )
        if error.code == "browser_unavailable":
            return ExecutorError("browser_unavailable", message)
        if tool == "web_navigate":
            if self.blocked_navigation:
                return ExecutorError(
                    "url_refused", "the page navigated to an origin outside the allow-list"
                )
            return ExecutorError("navigation_failed", f"the URL could not be opened: {message}")
        return ExecutorError(
            "action_failed", f"{tool} failed: {message}", details={"host_code": error.code}
        )

    def page(self) -> Page | None:
        session = self.host.sessions.get(self.key)
        tab = session.current if session is not None else None
        return tab.page if tab is not None else None

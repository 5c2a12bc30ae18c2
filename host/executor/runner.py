"""One action on one fresh session: navigate, fill the fields, submit, read the page back.

Every browser step that acts or reads what is returned is a tool call through the host
(`Host.call`, hence the registry and the generated shims: `web_navigate`, `web_locator_fill`,
`web_locator_click`, `web_locator_count`, `web_locator_evaluate`, `web_evaluate`,
`web_waitForLoadState`, `web_title`, `web_url`). Only what no tool can do touches Playwright
directly: waiting for the navigation a submit starts (an event), with an origin allow-list
refusing navigations elsewhere (a route callback), and counting every step's selector at once
when the page has loaded (`ahead`: tool calls on one session run one after another).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable

from playwright.async_api import Frame, Route

from host.executor.action_calls import Attempt
from host.executor.errors import ExecutorError
from host.executor.locating import Locating
from host.executor.logs import event
from host.executor.payload import FieldSpec
from host.executor.readback import ELEMENT_JS, PAGE_JS, PageRead, shown_excerpt, shown_title
from host.executor.readback import limits as read_limits
from host.executor.urlpolicy import origin_of
from host.sessions.settle import ActionWatch
from host.settings.limits import json_safe
from host.shared.jsontypes import JsonObject, JsonValue

VALUE_ECHO_CHARS = 1024
"""Characters of an unredacted value echoed in the field summary."""

SUBMIT_JS = r"""
(el) => {
  const form = el instanceof HTMLFormElement ? el : (el.form || el.closest('form'));
  if (!form) throw new Error('the submit selector is not a form and is not inside one');
  const submitter = !(el instanceof HTMLFormElement) && el.form === form
    && (el.type === 'submit' || el.type === 'image') ? el : undefined;
  let navigates = false;
  // Registered on window, so it runs after the page's own submit handlers: it sees whether one of
  // them called preventDefault (a script handles the submit) or the browser will navigate.
  const watch = (e) => { if (e.target === form) navigates = !e.defaultPrevented; };
  window.addEventListener('submit', watch);
  try { form.requestSubmit(submitter); } finally { window.removeEventListener('submit', watch); }
  return navigates;
}
"""


class ActionRun(Locating):
    """Runs one validated action in its own session and builds the response body.

    Guarantees: `run` returns `(status, body)` and never raises for anything the page, the browser
    or the payload did; the whole action (steps, retries, waits) ends within `timeout_ms` (a
    `timeout` error); the session is closed afterwards, whatever happened; a selector that does
    not resolve to exactly one element is retried after the settings' backoff delays with
    candidates from the page, and each retry is logged as `executor_web.retry`; every selector in
    the body or the log is PII-cleaned; the body holds no redacted value in any form.
    """

    async def run(self) -> tuple[int, JsonObject]:
        started = time.monotonic()
        try:
            try:
                async with asyncio.timeout_at(self.deadline):
                    body = await self._steps()
            except TimeoutError:
                raise ExecutorError(
                    "timeout", f"the action did not finish within {self.action.timeout_ms} ms"
                ) from None
            status = 200
        except ExecutorError as error:
            status, body = error.status, {"ok": False, "error": error.to_json()}
        body = {
            "ok": status == 200,
            "action_id": self.id,
            **body,
            "fields": self._fields_json(),
            "attempts": [self._attempt_json(a) for a in self.attempts],
            "retries": sum(1 for a in self.attempts if a.attempt > 0),
            "elapsed_ms": int((time.monotonic() - started) * 1000),
        }
        if self.submit is not None and self.action.submit is not None:
            body["submit"] = {
                "selector": self.clean(self.submit.selector),
                "selector_used": self.clean(self.submit.used) if self.submit.used else None,
                "kind": self.action.submit.kind,
                "done": self.submit.done,
            }
        scrubbed = json_safe(self.redactor.scrub_json(body))
        assert isinstance(scrubbed, dict)
        return status, scrubbed

    async def close(self) -> None:
        """Close the action's session (after the answer is sent: closing is not the caller's wait)."""
        session = self.host.sessions.get(self.key)
        if session is not None:
            # The action ends its session on purpose: its last tab closing must not open a new
            # one (a page, a renderer process, in a context about to close) as a tab the page
            # closed itself would.
            session.closing_intent = True
        try:
            async with asyncio.timeout(10):
                await self.host.sessions.drop(self.key, "the action finished")
        except Exception as error:  # the browser may be gone; the pool replaces it
            event("executor_web.cleanup_failed", action=self.id, error=type(error).__name__)

    async def _steps(self) -> JsonObject:
        if self.policy.allowed:
            await self._guard_navigations()
        navigation = await self.call(
            "web_navigate", {"url": self.action.url, "timeout": self.remaining_ms()}
        )
        if isinstance(navigation, dict) and isinstance(navigation.get("status"), int):
            self.status = int(navigation["status"])  # type: ignore[arg-type]
        page = self.page()
        selectors = [f.selector for f in self.action.fields]
        if self.action.submit is not None:
            selectors.append(self.action.submit.selector)
        if page is not None and selectors:
            await self.ahead.take(page, selectors, self.step_timeout() / 1000)
        for index, spec in enumerate(self.action.fields):
            await self._fill(index, spec)
        if self.action.submit is not None and self.submit is not None:
            self._ready_next()
            await self._submit()
        self._ready_next()
        url, title, excerpt = await self._read_back()
        return {"url": url, "title": title, "http_status": self.status, "excerpt": excerpt}

    def _ready_next(self) -> None:
        """What is left (a submit, its page's load, the reading back) mostly waits: the next
        action's session may be made meanwhile."""
        if self.next_session is not None:
            self.next_session()

    async def _guard_navigations(self) -> None:
        await self.call("web_url", {})  # creates the session, so its context can be guarded
        session = self.host.sessions.get(self.key)
        if session is None:
            raise ExecutorError("action_failed", "the action's session could not be created")

        async def guard(route: Route) -> None:
            request = route.request
            if request.is_navigation_request() and not self.policy.allows(request.url):
                self.blocked_navigation = True
                await route.abort("blockedbyclient")
            else:
                await route.fallback()

        await session.context.route("**/*", guard)

    async def _fill(self, index: int, spec: FieldSpec) -> None:
        state = self.fields[index]

        async def act(selector: str) -> None:
            await self.call(
                "web_locator_fill",
                {"selector": selector, "value": spec.value, "timeout": self.step_timeout()},
            )

        state.used = await self._locate_and_act(f"fields[{index}]", spec.selector, "fill", act)
        state.done = True

    async def _submit(self) -> None:
        assert self.action.submit is not None and self.submit is not None
        spec = self.action.submit
        page = self.page()
        committed = asyncio.Event()

        def on_navigated(frame: Frame) -> None:
            if page is not None and frame is page.main_frame:
                committed.set()

        navigates = False

        async def act(selector: str) -> None:
            nonlocal navigates
            committed.clear()
            watch = self._watch()
            try:
                if spec.kind == "click":
                    await self.call(
                        "web_locator_click", {"selector": selector, "timeout": self.step_timeout()}
                    )
                else:
                    result = await self.call(
                        "web_locator_evaluate",
                        {
                            "selector": selector,
                            "expression": SUBMIT_JS,
                            "timeout": self.step_timeout(),
                        },
                    )
                    navigates = result is True
                if watch is not None and not committed.is_set():
                    # What the submit set off, before the page is read; a navigation that
                    # commits meanwhile ends it (it is waited for below, to its load), so a
                    # form that navigates pays no grace.
                    await _until_committed(watch.settle(), committed)
            finally:
                if watch is not None:
                    watch.stop()

        if page is not None:
            page.on("framenavigated", on_navigated)
        try:
            self.submit.used = await self._locate_and_act("submit", spec.selector, "submit", act)
            self.submit.done = True
            if spec.wait_after_ms:
                await asyncio.sleep(spec.wait_after_ms / 1000)
            if navigates and not committed.is_set():
                # requestSubmit only schedules the navigation; wait for it to commit (bounded by
                # the action's deadline) before reading the page.
                await committed.wait()
        finally:
            if page is not None:
                page.remove_listener("framenavigated", on_navigated)
        if committed.is_set() or navigates:
            await self.call(
                "web_waitForLoadState", {"state": "load", "timeout": self.remaining_ms()}
            )

    def _watch(self) -> ActionWatch | None:
        """A watch over what the submit sets off (a navigation, a timer that navigates, its
        requests), settled on evidence as an agent's click is (host/sessions/settle.py)."""
        session = self.host.sessions.get(self.key)
        settle_s = self.host.config.settle_timeout
        if session is None or settle_s <= 0:
            return None
        # Without following requests: it reads the page back itself, and each listener would be
        # two more messages to Playwright's driver per action.
        return ActionWatch(session, settle_s, self.deadline, listen=False)

    async def _url(self) -> str:
        """The page's URL, refused (`url_refused`) if it is outside the allow-list."""
        url = str(await self.call("web_url", {}) or "")
        if not self.policy.allows(url):
            raise ExecutorError("url_refused", "the page ended on an origin outside the allow-list")
        return url

    async def _read_back(self) -> tuple[str, str, JsonObject]:
        """The page's URL, title and excerpt, read from one document of an allowed origin."""
        for tries in range(3):
            url = await self._url()  # nothing is read from a page outside the allow-list
            try:
                selector, fallback, read = await self._read_document()
            except ExecutorError as error:
                # A client-side redirect can replace the document while it is read.
                if error.code != "action_failed" or tries == 2:
                    raise
            else:
                after = await self._url()
                if after == url or tries == 2:
                    title = read.title
                    if title is None:  # the excerpt's element is in a child frame
                        title = str(await self.call("web_title", {}) or "")
                    excerpt = shown_excerpt(
                        read.html or "",
                        self.settings.excerpt_chars,
                        self.clean(selector),
                        fallback,
                        self.redactor,
                    )
                    return after, shown_title(title, self.redactor), excerpt
            await self.call(
                "web_waitForLoadState", {"state": "load", "timeout": self.remaining_ms()}
            )
        raise AssertionError("unreachable")

    async def _read_document(self) -> tuple[str, bool, PageRead]:
        """The title and the excerpt's markup in one evaluation: the snapshot selector's first
        element, or the body when there is none or it matches nothing (`fallback`)."""
        requested = self.action.snapshot_selector
        selector, fallback = "body", False
        if requested is not None:
            if await self._count(requested) >= 1:
                selector = requested
            else:
                fallback = True
        bounds = read_limits(self.settings.excerpt_chars)
        if selector == "body":
            read = PageRead.from_json(
                await self.call("web_evaluate", {"script": PAGE_JS, "arg": bounds})
            )
            if read.html is not None:
                return selector, fallback, read
        raw = await self.call(
            "web_locator_evaluate",
            {
                "selector": f"{selector} >> nth=0",
                "expression": ELEMENT_JS,
                "arg": bounds,
                "timeout": self.step_timeout(),
            },
        )
        return selector, fallback, PageRead.from_json(raw)

    # -- the body ----------------------------------------------------------------------------

    def _fields_json(self) -> list[JsonValue]:
        summary: list[JsonValue] = []
        for spec, state in zip(self.action.fields, self.fields, strict=True):
            item: JsonObject = {
                "selector": self.clean(spec.selector),
                "selector_used": self.clean(state.used) if state.used else None,
                "filled": state.done,
                "redacted": spec.redact,
            }
            if spec.redact:
                item["value"] = "REDACTED"
            else:
                item["value"] = spec.value[:VALUE_ECHO_CHARS]
                if len(spec.value) > VALUE_ECHO_CHARS:
                    item["value_truncated"] = True
            summary.append(item)
        return summary

    def _attempt_json(self, attempt: Attempt) -> JsonObject:
        item: JsonObject = {
            "step": attempt.step,
            "attempt": attempt.attempt,
            "selector": self.clean(attempt.selector),
            "outcome": attempt.outcome,
            "delay_ms": attempt.delay_ms,
        }
        if attempt.matched is not None:
            item["matched"] = attempt.matched
        if attempt.detail:
            item["detail"] = self.redactor.scrub(attempt.detail)
        return item


def action_origin(url: str) -> str:
    """What the log says about where an action went: its origin only (paths and queries may hold PII)."""
    return origin_of(url) or "(not http)"


async def _until_committed(settling: Awaitable[None], committed: asyncio.Event) -> None:
    """`settling`, ended early (cancelled) as soon as `committed` is set; its errors are raised."""
    settle = asyncio.ensure_future(settling)
    commit = asyncio.ensure_future(committed.wait())
    try:
        await asyncio.wait({settle, commit}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (settle, commit):
            if not task.done():
                task.cancel()
        await asyncio.gather(settle, commit, return_exceptions=True)
    if not settle.cancelled() and settle.exception() is not None:
        raise settle.exception()  # type: ignore[misc]

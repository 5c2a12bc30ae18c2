"""Deadlines for tool calls: no call outlives the deadline its caller set, and the page stays
usable after one expires.

A call past its deadline raises `ToolError` with the code `deadline_exceeded`. What the call was
waiting for is then abandoned (a promise that never resolves, Playwright's `timeout: 0`) and, on
Chromium, a script still running in the page (`while (true) {}`) is stopped through the Chrome
DevTools Protocol (`Runtime.terminateExecution`). That message must travel on a DevTools session
attached before the script started, since a session attached to a busy page waits for the page;
so the first call with a deadline on a Chromium page attaches one, once per page.

The sync API cannot be interrupted from another thread; a sync call runs its shim's async body on
the sync API's own event loop instead, where the deadline is an ordinary `asyncio` timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from playwright.async_api import Page as AsyncPage
from playwright.sync_api import Page as SyncPage
from playwright_tools._validate import ToolError

T = TypeVar("T")

_default_deadline_s: float | None = 120.0
# One DevTools session per page implementation, dropped with the page.
_sessions: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def set_default_deadline(seconds: float | None) -> None:
    """The deadline of calls that name none (`None`: no deadline). Starts at 120 s."""
    global _default_deadline_s
    if seconds is not None and not seconds > 0:
        raise ValueError("a deadline is a positive number of seconds, or None")
    _default_deadline_s = seconds


def resolve(deadline_s: float | None) -> float | None:
    if deadline_s is None:
        return _default_deadline_s
    if not deadline_s > 0:
        raise ValueError("a deadline is a positive number of seconds")
    return deadline_s


async def _guard(impl: Any) -> Any:
    """The page's DevTools session for stopping scripts, attached on first use. Playwright's own
    implementation objects are used, not the API wrappers: a page driven through the sync API
    has sync wrappers, which must not be awaited. Browsers without DevTools get None."""
    session = _sessions.get(impl)
    if session is None:
        with contextlib.suppress(Exception):  # not Chromium, or the page is closing
            session = await impl.context.new_cdp_session(impl)
            _sessions[impl] = session
    return session


async def _stop_scripts(session: Any) -> None:
    """Stop a script still running in the page; it would block every later call there."""
    if session is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(session.send("Runtime.terminateExecution", None), 5)


def _exceeded(name: str, deadline_s: float) -> ToolError:
    return ToolError(
        name,
        "deadline_exceeded",
        f"the call did not finish within its deadline of {deadline_s:g} s; it was abandoned "
        "(a script still running in the page was stopped) and the page can be used again",
    )


async def within(name: str, page: AsyncPage, call: Awaitable[T], deadline_s: float | None) -> T:
    """`await call`, or `deadline_exceeded` once `deadline_s` has passed (None: no deadline)."""
    if deadline_s is None:
        return await call
    guard = await _guard(page._impl_obj)
    task = asyncio.ensure_future(call)
    done, _ = await asyncio.wait({task}, timeout=deadline_s)
    if task in done:
        return task.result()
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    await _stop_scripts(guard)
    raise _exceeded(name, deadline_s)


def within_sync(name: str, page: SyncPage, run: Callable[[], T], deadline_s: float) -> T:
    """`run()` (sync API calls on `page`), or `deadline_exceeded` once `deadline_s` has passed.

    A sync call waits by running Playwright's event loop on this thread; a timer on that loop
    cancels the tasks the call started once the deadline passes, which ends the wait."""
    loop = getattr(page, "_loop", None)
    if loop is None:  # not a Playwright page (an object standing in for one): nothing to bound
        return run()
    guard = page._sync(_guard(page._impl_obj))
    before = asyncio.all_tasks(loop)
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        for task in asyncio.all_tasks(loop) - before:
            task.cancel()

    timer = loop.call_later(deadline_s, expire)
    try:
        return run()
    except asyncio.CancelledError:
        if not expired:
            raise
    finally:
        timer.cancel()
    page._sync(_stop_scripts(guard))
    raise _exceeded(name, deadline_s)

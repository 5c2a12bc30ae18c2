"""Deadlines for tool calls: no call outlives the deadline its caller set, and the page stays
usable after one expires.

A call past its deadline raises `ToolError` with the code `deadline_exceeded`. What the call was
waiting for is then abandoned (a promise that never resolves, Playwright's `timeout: 0`) and, on
Chromium, a script still running in the page (`while (true) {}`) is stopped through the Chrome
DevTools Protocol (`Runtime.terminateExecution`). That message must travel on a DevTools session
attached before the script started, since a session attached to a busy page waits for the page;
so the first call with a deadline on a Chromium page attaches one, once per page. Other browsers
have no such session: there a looping script keeps the page busy until it ends.

Only the call's own work is abandoned. Tasks that Playwright starts on the same event loop while
the call waits (a route or dialog handler of the caller's, say) are left to finish.

The sync API cannot be interrupted from another thread. A sync call waits by running Playwright's
event loop on the caller's thread, in the caller's greenlet's stead; the tasks the call's sync
methods create from the caller's greenlet are recorded, and a timer on that loop cancels them once
the deadline passes, which ends the wait with the same `deadline_exceeded`.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any, TypeVar

import greenlet  # type: ignore[import-untyped]  # Playwright's sync API runs on it; no stubs
from playwright.async_api import Page as AsyncPage
from playwright.sync_api import Page as SyncPage
from playwright_tools._validate import ToolError

T = TypeVar("T")

_default_deadline_s: float | None = 120.0
# One DevTools session per page implementation (None: the browser has none), dropped with the page.
_sessions: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
# The tasks each waiting sync call has created, by the greenlet the call runs in.
_calls: dict[Any, list[asyncio.Future[Any]]] = {}


def set_default_deadline(seconds: float | None) -> None:
    """The deadline of calls that name none (`None`: no deadline). Starts at 120 s."""
    global _default_deadline_s
    if seconds is not None and not seconds > 0:
        raise ValueError("a deadline is a positive number of seconds, or None")
    _default_deadline_s = seconds


def resolve(deadline_s: float | None) -> float | None:
    """The deadline in force for a call that names `deadline_s` (None: the default)."""
    if deadline_s is None:
        return _default_deadline_s
    if not deadline_s > 0:
        raise ValueError("a deadline is a positive number of seconds")
    return deadline_s


async def _guard(impl: Any) -> Any:
    """The page's DevTools session for stopping scripts, attached on first use. Playwright's own
    implementation objects are used, not the API wrappers: a page driven through the sync API
    has sync wrappers, which must not be awaited. Browsers without DevTools get None."""
    if impl in _sessions:
        return _sessions[impl]
    session = None
    with contextlib.suppress(Exception):  # not Chromium, or the page is closing
        session = await impl.context.new_cdp_session(impl)
    _sessions[impl] = session
    return session


async def _stop_scripts(session: Any) -> None:
    """Stop a script still running in the page; it would block every later call there. With no
    script running, Chromium answers at once and the next script runs normally."""
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
    """`await call`, or `deadline_exceeded` once `deadline_s` has passed (None: no deadline).
    A caller that cancels the wait cancels the call too."""
    if deadline_s is None:
        return await call
    guard = await _guard(page._impl_obj)
    task = asyncio.ensure_future(call)
    try:
        done, _ = await asyncio.wait({task}, timeout=deadline_s)
    finally:
        if not task.done():
            task.cancel()  # past the deadline, or the caller gave up waiting
    if task in done:
        return task.result()
    with contextlib.suppress(BaseException):
        await task
    await _stop_scripts(guard)
    raise _exceeded(name, deadline_s)


class _RecordingTaskFactory:
    """The event loop's task factory while sync calls have deadlines: it makes tasks as the
    factory it replaced did, and records those created from a greenlet that has a call waiting
    (a sync method's task is created in its caller's greenlet; the loop's own work, such as a
    route handler, in the dispatcher's)."""

    def __init__(self, previous: Any) -> None:
        self.previous = previous

    def __call__(
        self,
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, Any] | Generator[Any, None, Any],
        **kwargs: Any,
    ) -> asyncio.Future[Any]:
        task: asyncio.Future[Any] = (
            self.previous(loop, coro, **kwargs)
            if self.previous is not None
            else asyncio.Task(coro, loop=loop, **kwargs)
        )
        waiting = _calls.get(greenlet.getcurrent())
        if waiting is not None:
            waiting.append(task)
        return task


def _record_tasks(loop: asyncio.AbstractEventLoop) -> None:
    factory = loop.get_task_factory()
    if not isinstance(factory, _RecordingTaskFactory):
        loop.set_task_factory(_RecordingTaskFactory(factory))


def within_sync(name: str, page: SyncPage, run: Callable[[], T], deadline_s: float) -> T:
    """`run()` (sync API calls on `page`), or `deadline_exceeded` once `deadline_s` has passed."""
    loop = getattr(page, "_loop", None)
    if loop is None:  # not a Playwright page (an object standing in for one): nothing to bound
        return run()
    guard = page._sync(_guard(page._impl_obj))
    _record_tasks(loop)
    caller = greenlet.getcurrent()
    own: list[asyncio.Future[Any]] = []
    _calls[caller] = own
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        for task in own:
            task.cancel()  # a no-op for the call's finished tasks

    timer = loop.call_later(deadline_s, expire)
    try:
        return run()
    except asyncio.CancelledError:
        if not expired:
            raise
    finally:
        timer.cancel()
        del _calls[caller]
    page._sync(_stop_scripts(guard))
    raise _exceeded(name, deadline_s)

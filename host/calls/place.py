"""A call's second step: its deadline, its session, and its turn in that session.

`place` finds or starts the session of the call's key within the call's deadline, waits for the
session's earlier call no longer than that deadline allows, and readies the session (a repaired
tab settled, a tab showing a refused URL taken away). On the way out it releases the turn and
gathers what the session has to tell the caller, whatever the outcome: a session that is new or
ended (an ended one is dropped, the next call starts a new one), notes, open dialogs, a call a
dialog interrupted.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

from playwright.async_api import Error as PlaywrightError

from host.calls.call import Call, HostParts
from host.calls.check import EXECUTE_TOOL
from host.calls.failures import first_line
from host.sessions.dialogs import describe_dialog
from host.sessions.session import Session
from host.settings.config import HostConfig
from host.settings.limits import execute_timeout, json_safe
from host.shared.errors import HostError

MAX_TIMEOUT_MS = 300_000
"""The largest `timeout` a tool's schema accepts (its `maximum`); a call's deadline follows it."""
# Generated tools that close the current tab on the caller's behalf.
CLOSING_TOOLS = frozenset({"web_close", "browser_close"})


def deadline_s(config: HostConfig, args: object, tool: str) -> float:
    """How long a call may take, from its arrival to its answer."""
    limit = config.navigation_timeout
    if tool == EXECUTE_TOOL:
        limit = max(limit, execute_timeout(args) + 10.0)
    if isinstance(args, dict):
        timeout = args.get("timeout")
        if isinstance(timeout, int | float) and not isinstance(timeout, bool) and timeout > 0:
            limit = max(limit, min(timeout, MAX_TIMEOUT_MS) / 1000)
    return limit + 5.0


@contextlib.asynccontextmanager
async def place(host: HostParts, call: Call) -> AsyncIterator[Session]:
    """The call's session, held for the call's turn; a `HostError` (`browser_unavailable`,
    `timeout`) when it cannot be had within the call's deadline."""
    call.budget = deadline_s(host.config, call.args, call.tool)
    call.deadline = asyncio.get_running_loop().time() + call.budget
    session, restarted = await _acquire(host, call)
    call.session, call.placed = session, True
    if restarted is not None:
        call.extras["session"] = {
            "new": True,
            "reason": f"{restarted}; this call ran in a new session",
        }
    session.busy += 1
    try:
        await _take_turn(session, call)
        try:
            await _ready(host, session, call)
            yield session
        finally:
            session.closing_intent = False
            if session.watch is not None:
                session.watch.stop()
                session.watch = None
            session.lock.release()
    except HostError:  # the call fails with it: the session's news still goes with the answer
        _leave(session)
        await _tell(host, call, session)
        raise
    except BaseException:
        _leave(session)
        raise
    _leave(session)
    await _tell(host, call, session)


async def _acquire(host: HostParts, call: Call) -> tuple[Session, str | None]:
    try:
        async with asyncio.timeout_at(call.deadline):
            return await host.sessions.acquire(call.key, call.budget)
    except TimeoutError:
        raise HostError(
            "browser_unavailable",
            f"no browser session could be started within the call's {call.budget:g} s; call again",
        ) from None
    except PlaywrightError as error:
        raise HostError(
            "browser_unavailable",
            f"no browser session could be started: {first_line(error)}",
        ) from None


async def _take_turn(session: Session, call: Call) -> None:
    """Wait for the session's earlier call no longer than this call's deadline allows."""
    try:
        async with asyncio.timeout_at(call.deadline):
            await session.lock.acquire()
    except TimeoutError:
        raise HostError(
            "timeout",
            f"the session was still busy with an earlier call for this call's whole "
            f"{call.budget:g} s",
        ) from None


async def _ready(host: HostParts, session: Session, call: Call) -> None:
    if session._repairs:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(call.deadline):
                await session.settle()
    # A tab some frame of which shows a refused URL is taken away from it.
    for tab, url in session.blocked_frames():
        session.note({"event": "url_blocked", "detail": host.policy.landed_refusal(url)})
        await session.take_away(tab)
    session.blocked_landing = None
    session.closing_intent = call.descriptor.name in CLOSING_TOOLS


def _leave(session: Session) -> None:
    session.busy -= 1
    session.last_used = time.monotonic()


async def _tell(host: HostParts, call: Call, session: Session) -> None:
    """What the session has to tell the caller, into the call's extras."""
    extras = call.extras
    if session.notes:
        extras["notes"] = json_safe(session.take_notes())
    if session.open_dialogs:
        extras["dialogs"] = json_safe(
            [{**describe_dialog(d), "tab": session.index_of(d.page)} for d in session.open_dialogs]
        )
    if session.interrupted_by_dialog:
        session.interrupted_by_dialog = False
        extras["interrupted"] = (
            "a dialog opened while the call ran and is waiting for an answer; the call goes on "
            "once browser_handle_dialog answers it"
        )
    if session.ended is not None and host.sessions.get(session.key) is session:
        extras["session"] = {
            "ended": True,
            "reason": f"{session.ended}; the next call starts a new session",
        }
        await host.sessions.drop(session.key)

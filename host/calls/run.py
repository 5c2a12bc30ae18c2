"""A call's third step: the tool runs on the session's current tab, within the call's deadline.

A call past its deadline is abandoned (what it left running in the tab is stopped, a tab that
still does not answer is replaced); a failure comes back as a `HostError` (`failures`).
"""

from __future__ import annotations

import asyncio
import logging

from playwright.async_api import Error as PlaywrightError

from host.calls.call import Call, HostParts
from host.calls.failures import classify, first_line, other_failure, retrieve
from host.calls.registry import CallContext
from host.calls.result_caps import refused
from host.sessions.session import Session
from host.sessions.settle import ActionWatch
from host.sessions.tab import Tab
from host.sessions.tab_control import is_gone, stop_navigation, stop_scripts
from host.sessions.targets import runs_a_regex
from host.shared.errors import HostError

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
_PROBE_S = 3.0


async def run(host: HostParts, call: Call, session: Session) -> object:
    """The tool's value, or a `HostError` (`session_ended`, `dialog_open`, `timeout`,
    `cancelled`, a failure's code)."""
    descriptor = call.descriptor
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
        session.watch = ActionWatch(session, host.config.settle_timeout, call.deadline)
    work = asyncio.ensure_future(call.runner(CallContext(session, tab, host.config, host.recorder)))
    session.inflight = work
    try:
        remaining = call.deadline - asyncio.get_running_loop().time()
        done, _ = await asyncio.wait({work}, timeout=max(0.0, remaining))
    except asyncio.CancelledError:
        work.cancel()  # the caller went away: the call goes with it
        raise
    finally:
        session.inflight = None
    if work not in done:
        await _abandon(host, session, tab, work)
        raise HostError(
            "timeout",
            f"the call did not finish within {call.budget:g} s and was abandoned (a script "
            "still running in the page was stopped); the session answers the next call",
        )
    if work.cancelled():
        if session.interrupted_by_dialog:
            return None
        raise HostError("cancelled", "the call was cancelled")
    error = work.exception()
    if error is None:
        return work.result()
    too_large = refused(error, host.config.max_result_bytes)
    if too_large is not None:
        raise too_large
    if isinstance(error, HostError):
        raise error
    if isinstance(error, PlaywrightError):
        regex_at = _regex_target(call.args) if "Timeout" in first_line(error) else None
        if regex_at is not None and not is_gone(session, tab):
            # Playwright's timeout ends the call, not the regular expression: one that
            # backtracks without end holds the page's main thread for every later call.
            await stop_scripts(tab)
            raise HostError(
                "timeout",
                f"no element matched in time ({first_line(error)}); the target's regular "
                "expression was stopped in the page (one that backtracks without end blocks "
                "it); write a simpler one, or give text",
                path=regex_at,
            ) from None
        raise await classify(host, session, tab, error) from None
    await other_failure(host, session, error)


async def _abandon(
    host: HostParts, session: Session, tab: Tab, work: asyncio.Future[object]
) -> None:
    """A call past its deadline: cancel it, give Playwright a moment to let go, stop what it
    left running in the tab (a pending navigation, a script looping in the page), and replace
    the tab only if it still does not answer: it is then blocked outside any script (a
    synchronous request that is never answered) and would hold every later call."""
    work.cancel()
    await asyncio.wait({work}, timeout=host.config.abandon_grace)
    if not work.done():
        work.add_done_callback(retrieve)  # abandoned: it ends whenever Playwright lets go
    if host.sessions.pool_of(session).gone() is not None or is_gone(session, tab):
        return
    await stop_navigation(tab)
    await stop_scripts(tab)
    await _probe(session, tab, "tab_hung")


async def _probe(session: Session, tab: Tab, event: str) -> None:
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

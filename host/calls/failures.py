"""What a failed run means: a Playwright error or another exception becomes a `HostError` with a
code (the browser or driver lost, the tab crashed or closed, a navigation that timed out and was
stopped, an argument Playwright refused), and the session is told what it has to know (ended,
a tab to replace)."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any, NoReturn

from playwright.async_api import Error as PlaywrightError

from host.calls.call import HostParts
from host.sessions.session import Session
from host.sessions.tab import Tab
from host.sessions.tab_control import is_gone, stop_navigation, stop_scripts
from host.shared.errors import HostError

# Playwright's navigating methods, as its errors name them: a timeout of one leaves the
# navigation pending in the browser.
_NAVIGATIONS = re.compile(r"(?:Page|Frame)\.(?:goto|reload|go_back|go_forward):")
_SNAPSHOTS = re.compile(r"(?:Page|Frame|Locator)\.aria_snapshot:")
_CLOSED_WORDS = ("closed", "crash", "disconnected", "connection", "detached")


def lost(host: HostParts, session: Session, loss: str) -> HostError | None:
    """With several endpoints, the error of a call whose endpoint was lost (None: one)."""
    if not host.endpoints.several:
        return None
    message = host.sessions.lost_message(session, loss)
    session.ended = message
    session.lost_told = True
    return HostError("browser_lost", message)


async def other_failure(host: HostParts, session: Session, error: BaseException) -> NoReturn:
    """Raise the `HostError` of an exception that is neither Playwright's nor the host's."""
    loss = await host.sessions.pool_of(session).gone_after(patience(error))
    if loss is not None:
        endpoint_lost = lost(host, session, loss)
        if endpoint_lost is not None:
            raise endpoint_lost
        session.ended = f"{loss}; it was relaunched"
        raise HostError(
            "driver_crashed" if "driver" in loss else "browser_crashed",
            f"{loss} while the call ran; the next call starts a new session in a relaunched browser",
        )
    code = getattr(error, "code", None)
    if isinstance(code, str):  # the generated package's ToolError: an argument found wrong late
        detail = str(getattr(error, "detail", error))
        raise HostError(code, clip(detail), path=str(getattr(error, "path", "")))
    # an argument Playwright rejects in its own way
    raise HostError("call_failed", f"{type(error).__name__}: {clip(str(error))}")


async def classify(
    host: HostParts, session: Session, tab: Tab, error: PlaywrightError
) -> HostError:
    """The `HostError` a Playwright error on `tab` amounts to."""
    message = first_line(error)
    pool = host.sessions.pool_of(session)
    loss = await pool.gone_after(patience(error))
    if loss is not None or session.generation != pool.generation:
        loss = loss or pool.last_loss or "the browser exited"
        endpoint_lost = lost(host, session, loss)
        if endpoint_lost is not None:
            return endpoint_lost
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
                f"tab stays on {clip(tab.page.url, 300)}; call again with a longer timeout "
                "if the server is slow",
            )
    if patience(error) or "detached" in message:
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
    return HostError("playwright_error", clip(str(error.message)))


def patience(error: BaseException) -> float:
    """How long to wait for a browser's disconnect to show after `error`: a moment when the error
    says something closed, else not at all."""
    text = str(getattr(error, "message", None) or error).lower()
    return 3.0 if any(word in text for word in _CLOSED_WORDS) else 0.0


def retrieve(task: asyncio.Future[Any]) -> None:
    """A done callback for a task no one awaits: its exception is retrieved, never logged."""
    if not task.cancelled():
        task.exception()


def first_line(error: BaseException) -> str:
    """The first line of an error's message, clipped (its type's name if it has none)."""
    text = getattr(error, "message", None) or str(error)
    return clip(
        str(text).strip().splitlines()[0] if str(text).strip() else type(error).__name__, 500
    )


def clip(text: str, limit: int = 2000) -> str:
    """`text` cut to `limit` characters, marked with `...` when cut."""
    return text if len(text) <= limit else text[:limit] + "..."

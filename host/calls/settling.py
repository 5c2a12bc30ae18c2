"""A call's fourth step: after the tool ran, the page it acted on settles and is checked.

What the action set off settles (its `ActionWatch`, in `host/sessions/settle.py`), a page that
went where the navigation policy refuses fails the call (`url_blocked`, the tab taken back),
downloads it started are settled, and an action that returned nothing gets the page's feedback
(a snapshot) as its value.
"""

from __future__ import annotations

from host.calls.call import Call, HostParts
from host.sessions.session import Session
from host.shared.errors import HostError


async def settle(host: HostParts, call: Call, session: Session, value: object) -> object:
    """The call's value once its page settled: `value`, or the page's feedback for an action
    that returned none; a `HostError` (`url_blocked`) when a page landed on a refused URL."""
    if value is not None and session.watch is not None:
        await session.watch.settle()  # an action whose result was not page feedback
    await _check_landings(host, session)
    await session.settle_downloads(host.config.download_wait)
    if value is None and call.descriptor.feedback and session.ended is None:
        from host.calls.feedback import page_feedback

        value = await page_feedback(session)
    return value


async def _check_landings(host: HostParts, session: Session) -> None:
    """If a page went somewhere the policy refuses, the call's result is dropped, the page taken
    away from it, and the call fails with `url_blocked`."""
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
        f"{host.policy.landed_refusal(landed)}; the tab was taken back to about:blank and "
        "the call's result was dropped",
    )

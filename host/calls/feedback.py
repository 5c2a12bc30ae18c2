"""The short page feedback an agent action answers with, instead of `null`."""

from __future__ import annotations

import asyncio
import contextlib
import json

from playwright.async_api import Error as PlaywrightError

from host.calls.page_snapshot import snapshot_within
from host.calls.results import Rendered
from host.sessions.dialogs import describe_dialog
from host.sessions.session import Session
from host.sessions.tab import Tab
from host.sessions.targets import record_refs
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


async def page_feedback(
    session: Session, extra: JsonObject | None = None, *, snapshot: bool = True
) -> Rendered:
    """`{url, title, tabs, tab, dialog?, requests?, console?, consoleErrors?}` of the session
    after an action, plus `extra` (the action's own answer) first.

    Guarantees: first waits, boundedly, for what the action set off (host/sessions/settle.py: a
    navigation, dialog, tab, download or requests), so the URL is where the action led; waits no
    longer than one action may for the title (read within the action timeout, and skipped while
    a dialog blocks the tab, since a page with an open dialog runs no script), so a busy machine
    still reports the real title; `requests` are the fetch/XHR requests and navigations the
    action started; `console` the messages at or above the console level, and `consoleErrors`
    the errors, logged since the previous feedback, each cut to 300 characters. With
    `--snapshot-mode full` (and `snapshot`, which browser_snapshot turns off: it shows its own)
    the page's snapshot follows, cut as browser_snapshot's is, its refs usable by the next call,
    or, when the page cannot give one within the action timeout, `snapshotOmitted`: why.
    """
    watch = session.watch
    if watch is not None:
        await watch.settle()
    value: JsonObject = dict(extra or {})
    tab = session.current
    lines = [f"{key}: {_short(item)}" for key, item in value.items() if item is not None]
    if tab is not None and not tab.crashed:
        value["url"] = tab.page.url
        title = ""
        if session.blocking_dialog() is None:
            with contextlib.suppress(PlaywrightError, TimeoutError):
                async with asyncio.timeout(session.config.action_timeout):
                    title = await tab.page.title()
        value["title"] = title
        lines.append(f"page: {_short(tab.page.url)[:500]} ({title!r})")
    value["tabs"] = len(session.tabs)
    value["tab"] = session.index_of(tab.page) if tab is not None else None
    if len(session.tabs) > 1:
        lines.append(f"tabs: {len(session.tabs)}, current {value['tab']} (browser_tabs to switch)")
    dialog = session.blocking_dialog()
    if dialog is not None:
        value["dialog"] = describe_dialog(dialog)
        lines.append(
            f"dialog open: {dialog.type} {dialog.message[:200]!r} (answer with browser_handle_dialog)"
        )
    if tab is not None and tab.file_chooser is not None:
        value["fileChooser"] = "open"
        lines.append(
            "file chooser open (answer with browser_file_upload: paths, or none to cancel)"
        )
    if watch is not None:
        requests = watch.report()
        if requests:
            value["requests"] = requests
            lines.append("requests: " + " | ".join(str(r) for r in requests))
    errors = session.take_new_errors()
    if errors:
        value["consoleErrors"] = list[JsonValue](errors)
    messages, dropped = session.take_new_console()
    if messages:
        value["console"] = list[JsonValue](messages)
        shown = " | ".join(f"[{m['level']}] {m['text']}" for m in messages)
        more = f" (and {dropped} earlier: browser_console_messages)" if dropped else ""
        lines.append(f"new console messages: {shown}{more}")
    elif errors:
        lines.append("new console errors: " + " | ".join(errors))
    if snapshot and session.config.snapshot_mode == "full" and tab is not None:
        taken = await _snapshot(session, tab)
        if isinstance(taken, HostError):
            value["snapshotOmitted"] = taken.message
            lines.append(f"snapshot left out: {taken.message}")
        elif taken is not None:
            value["snapshot"] = taken
            lines.append(f"snapshot:\n{taken}")
    return Rendered(value, "\n".join(lines))


async def _snapshot(session: Session, tab: Tab) -> str | HostError | None:
    """The current tab's snapshot for `--snapshot-mode full`, cut at the snapshot limit; None
    while a dialog blocks the tab (a page with an open dialog answers nothing; the feedback says
    a dialog is open); the reason it was left out when the page cannot give one within the
    action timeout (the feedback still answers, the tab where it was)."""
    if tab.crashed or session.blocking_dialog() is not None:
        return None
    try:
        text = await snapshot_within(
            tab, session.config.action_timeout, mode="ai", boxes=session.config.snapshot_boxes
        )
    except HostError as error:
        return error
    except PlaywrightError as error:
        first = (error.message or type(error).__name__).strip().splitlines()
        return HostError(
            "playwright_error", f"the page gave no snapshot: {first[0] if first else ''}"
        )
    limit = session.config.snapshot_limit
    if len(text) > limit:
        cut = text.rfind("\n", 0, limit)
        text = (
            text[: cut if cut > 0 else limit] + "\n[cut: browser_snapshot with a target shows more]"
        )
    record_refs(tab, text)
    return text


def _short(value: JsonValue) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 2000 else text[:2000] + "..."

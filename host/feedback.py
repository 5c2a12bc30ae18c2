"""The short page feedback an agent action answers with, instead of `null`."""

from __future__ import annotations

import asyncio
import contextlib
import json

from playwright.async_api import Error as PlaywrightError

from host.jsontypes import JsonObject, JsonValue
from host.results import Rendered
from host.session import Session, describe_dialog


async def page_feedback(session: Session, extra: JsonObject | None = None) -> Rendered:
    """`{url, title, tabs, tab, dialog?, consoleErrors?}` of the session after an action, plus
    `extra` (the action's own answer) first.

    Guarantees: waits no longer than one action may (the title is read within the action
    timeout, and skipped while a dialog blocks the tab, since a page with an open dialog runs no
    script), so a busy machine still reports the real title; console errors are those
    logged since the previous feedback, each cut to 300 characters.
    """
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
    errors = session.take_new_errors()
    if errors:
        value["consoleErrors"] = list[JsonValue](errors)
        lines.append("new console errors: " + " | ".join(errors))
    return Rendered(value, "\n".join(lines))


def _short(value: JsonValue) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 2000 else text[:2000] + "..."

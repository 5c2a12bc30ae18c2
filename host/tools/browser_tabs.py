"""`browser_tabs`: List, select, open or close the session's tabs.

Described by `browser_tabs.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

from host.calls.registry import CallContext
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


async def _tabs_with_titles(call: CallContext) -> list[JsonValue]:
    snapshot = list(call.session.tabs)
    tabs = call.session.tab_list()[: len(snapshot)]
    for entry, tab in zip(tabs, snapshot, strict=True):
        assert isinstance(entry, dict)
        try:
            entry["title"] = "" if tab.crashed else await tab.page.title()
        except PlaywrightError:
            entry["title"] = ""
    return tabs


async def browser_tabs(call: CallContext, args: JsonObject) -> JsonValue:
    session = call.session
    action = args.get("action", "list")
    index = args.get("index")
    if action == "new":
        page = await session.context.new_page()
        session._adopt(page)  # the "page" event may not have arrived yet
        session.notes = [
            n for n in session.notes if not (isinstance(n, dict) and n.get("event") == "tab_opened")
        ]
        new_index = session.index_of(page)
        assert new_index is not None
        session.current = session.tabs[new_index]
        await session.current.attached()  # its workers are guarded before it navigates
        url = args.get("url")
        if isinstance(url, str):
            await page.goto(url)
    elif action in ("select", "close"):
        if index is None and action == "select":
            raise HostError("missing_argument", "select needs the tab's index", path="index")
        position = session.tabs.index(call.tab) if index is None else index
        if not isinstance(position, int) or not 0 <= position < len(session.tabs):
            raise HostError(
                "invalid_argument",
                f"no tab {position}; there are {len(session.tabs)} tabs (0 to {len(session.tabs) - 1})",
                path="index",
            )
        tab = session.tabs[position]
        if action == "select":
            session.current = tab
        else:
            session.closing_intent = True  # closing the last tab ends the session
            await tab.page.close()
            if session.ended is not None:
                return {"tabs": [], "closed": position}
    return {"tabs": await _tabs_with_titles(call)}

"""The `storage` capability's localStorage and sessionStorage tools (`--caps storage`), as
@playwright/mcp's: `browser_localstorage_*` and `browser_sessionstorage_*` (`list`, `get`, `set`,
`delete`, `clear`), each described by its `.tool.yaml` beside this file.

They act on the current tab's page (its main frame's origin). A page whose origin is opaque
(`about:blank`, `data:`) has no storage: `no_web_storage`, before the page is asked. Lists are
capped (`MAX_LISTED` items, values cut at `MAX_LISTED_VALUE` characters); `get` gives a value up
to `MAX_VALUE` characters.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from playwright.async_api._generated import WebStorage

from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

MAX_LISTED = 200
MAX_LISTED_VALUE = 500
MAX_VALUE = 100_000

Tool = Callable[[CallContext, JsonObject], Awaitable[JsonValue]]


def _storage(call: CallContext, kind: str) -> WebStorage:
    page = call.tab.page
    if urlsplit(page.url).scheme not in ("http", "https", "file"):
        raise HostError(
            "no_web_storage",
            f"the current page ({page.url[:100]}) has an opaque origin and no {kind}; navigate "
            "to the site's page first",
        )
    return page.local_storage if kind == "localStorage" else page.session_storage


def _tools(kind: str) -> tuple[Tool, Tool, Tool, Tool, Tool]:
    async def listing(call: CallContext, args: JsonObject) -> JsonValue:
        items = await _storage(call, kind).items()
        listed: list[JsonValue] = []
        for item in items[:MAX_LISTED]:
            entry: JsonObject = {"name": item["name"], "value": item["value"][:MAX_LISTED_VALUE]}
            if len(item["value"]) > MAX_LISTED_VALUE:
                entry["cut"] = True
            listed.append(entry)
        value: JsonObject = {"items": listed}
        lines = [
            f"{item['name']}={item['value'][:MAX_LISTED_VALUE]}" for item in items[:MAX_LISTED]
        ]
        if len(items) > MAX_LISTED:
            value["truncated"] = len(items)
            lines.append(f"... {len(items)} items in all")
        return Rendered(value, "\n".join(lines) or f"{kind} is empty")

    async def get(call: CallContext, args: JsonObject) -> JsonValue:
        key = str(args["key"])
        found = await _storage(call, kind).get_item(key)
        if found is None:
            return Rendered({"key": key, "value": None}, f"{kind} has no key {key!r}")
        value: JsonObject = {"key": key, "value": found[:MAX_VALUE]}
        if len(found) > MAX_VALUE:
            value["truncated"] = len(found)
        return Rendered(value, f"{key}={found[:MAX_VALUE]}")

    async def set_item(call: CallContext, args: JsonObject) -> JsonValue:
        key = str(args["key"])
        await _storage(call, kind).set_item(key, str(args["value"]))
        return Rendered({"set": key}, f"{kind} key {key!r} set")

    async def delete(call: CallContext, args: JsonObject) -> JsonValue:
        key = str(args["key"])
        await _storage(call, kind).remove_item(key)
        return Rendered({"deleted": key}, f"{kind} key {key!r} deleted")

    async def clear(call: CallContext, args: JsonObject) -> JsonValue:
        await _storage(call, kind).clear()
        return Rendered({"cleared": kind}, f"{kind} cleared")

    return listing, get, set_item, delete, clear


(
    browser_localstorage_list,
    browser_localstorage_get,
    browser_localstorage_set,
    browser_localstorage_delete,
    browser_localstorage_clear,
) = _tools("localStorage")
(
    browser_sessionstorage_list,
    browser_sessionstorage_get,
    browser_sessionstorage_set,
    browser_sessionstorage_delete,
    browser_sessionstorage_clear,
) = _tools("sessionStorage")

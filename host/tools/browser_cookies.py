"""The `storage` capability's cookie tools (`--caps storage`), as @playwright/mcp's.

`browser_cookie_list`, `browser_cookie_get`, `browser_cookie_set`, `browser_cookie_delete` and
`browser_cookie_clear`, each described by its `.tool.yaml` beside this file. They act on the
session's BrowserContext, so every tab of the session shares the cookies. Lists are capped
(`MAX_LISTED` cookies, values cut at `MAX_LISTED_VALUE` characters, said in `truncated` / `cut`);
`browser_cookie_get` gives one cookie whole.
"""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlsplit

from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.settings.storage_state import check_cookie
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

MAX_LISTED = 100
MAX_LISTED_VALUE = 500
_SET_OPTIONS = ("expires", "httpOnly", "secure", "sameSite")


def _line(cookie: JsonObject) -> str:
    return f"{cookie['name']}={cookie['value']} (domain {cookie['domain']}, path {cookie['path']})"


async def browser_cookie_list(call: CallContext, args: JsonObject) -> JsonValue:
    domain, path = str(args.get("domain", "")), str(args.get("path", ""))
    cookies = [
        c
        for c in await call.session.context.cookies()
        if domain in c.get("domain", "") and c.get("path", "").startswith(path)
    ]
    listed: list[JsonValue] = []
    for cookie in cookies[:MAX_LISTED]:
        entry: JsonObject = {
            key: str(cookie.get(key, "")) for key in ("name", "value", "domain", "path")
        }
        if len(cookie.get("value", "")) > MAX_LISTED_VALUE:
            entry["value"] = cookie.get("value", "")[:MAX_LISTED_VALUE]
            entry["cut"] = True
        listed.append(entry)
    value: JsonObject = {"cookies": listed}
    lines = [_line(cast(JsonObject, c)) for c in listed] or ["no cookies"]
    if len(cookies) > MAX_LISTED:
        value["truncated"] = len(cookies)
        lines.append(f"... {len(cookies)} cookies in all; filter by domain or path")
    return Rendered(value, "\n".join(lines))


async def browser_cookie_get(call: CallContext, args: JsonObject) -> JsonValue:
    name = str(args["name"])
    found = [c for c in await call.session.context.cookies() if c.get("name") == name]
    if not found:
        return Rendered({"cookie": None}, f"no cookie named {name!r}")
    cookie = cast(JsonObject, dict(found[0]))
    value: JsonObject = {"cookie": cookie}
    text = _line(cookie) + (
        f", httpOnly {str(cookie.get('httpOnly')).lower()}, secure "
        f"{str(cookie.get('secure')).lower()}, sameSite {cookie.get('sameSite')}"
    )
    if len(found) > 1:
        value["more"] = len(found) - 1
        text += f"\n{len(found) - 1} more cookie(s) of this name: browser_cookie_list shows them"
    return Rendered(value, text)


async def browser_cookie_set(call: CallContext, args: JsonObject) -> JsonValue:
    domain = str(args.get("domain") or "")
    if not domain:
        # As @playwright/mcp: the current page's host, for the whole site (path /).
        domain = urlsplit(call.tab.page.url).hostname or ""
        if not domain:
            raise HostError(
                "invalid_argument",
                f"the current page ({call.tab.page.url[:100]}) has no host to set a cookie for; "
                "give domain, or navigate to the site first",
                path="domain",
            )
    cookie: dict[str, Any] = {
        "name": str(args["name"]),
        "value": str(args["value"]),
        "domain": domain,
        "path": str(args.get("path") or "/"),
    }
    cookie.update({key: args[key] for key in _SET_OPTIONS if key in args})
    check_cookie(cookie)  # Playwright's and Chromium's rules, each refusal naming its argument
    await call.session.context.add_cookies([cookie])  # type: ignore[list-item]
    where = {"name": cookie["name"], "domain": domain, "path": cookie["path"]}
    return Rendered({"set": where}, f"cookie {cookie['name']} set for {domain}{cookie['path']}")


async def browser_cookie_delete(call: CallContext, args: JsonObject) -> JsonValue:
    name = str(args["name"])
    context = call.session.context
    count = sum(1 for c in await context.cookies() if c.get("name") == name)
    await context.clear_cookies(name=name)
    return Rendered({"deleted": count}, f"{count} cookie(s) named {name!r} deleted")


async def browser_cookie_clear(call: CallContext, args: JsonObject) -> JsonValue:
    context = call.session.context
    count = len(await context.cookies())
    await context.clear_cookies()
    return Rendered({"cleared": count}, f"{count} cookie(s) cleared")

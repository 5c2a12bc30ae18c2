"""The hand-authored tools: what Playwright does through callbacks or across pages.

Each function is named by a `.tool.yaml` in `host/tools/` (`calls.python`); its arguments have
been validated against that file's schema before it runs. Callbacks become queues and patterns:
routes are rules the session applies, responses, console messages, network requests and dialogs
are buffered by the session and read (and cleared) by these tools.
"""

from __future__ import annotations

import base64
import json

from playwright.async_api import Error as PlaywrightError

from host.errors import HostError
from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.session import RouteRule, describe_dialog, level_at_least

MAX_ROUTES = 100
_TEXT_TYPES = ("text/", "json", "javascript", "xml", "x-www-form-urlencoded", "svg")


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


async def web_tabs(call: CallContext, args: JsonObject) -> JsonValue:
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


async def web_route(call: CallContext, args: JsonObject) -> JsonValue:
    actions = [a for a in ("fulfill", "abort", "continue") if a in args]
    if len(actions) != 1:
        raise HostError(
            "invalid_argument",
            "give exactly one of fulfill, abort or continue",
            path=actions[1] if len(actions) > 1 else "fulfill",
        )
    action = actions[0]
    spec = args[action]
    assert isinstance(spec, dict)
    if action == "fulfill":
        if "body" in spec and "json" in spec:
            raise HostError("invalid_argument", "give body or json, not both", path="fulfill.json")
        size = len(str(spec.get("body", ""))) + len(json.dumps(spec.get("json")))
        if size > call.config.max_body_bytes:
            raise HostError(
                "invalid_argument",
                f"the body is larger than the host's limit of {call.config.max_body_bytes} bytes",
                path="fulfill.body",
            )
    if len(call.session.routes) >= MAX_ROUTES:
        raise HostError(
            "too_many_routes",
            f"a session holds at most {MAX_ROUTES} routes; remove some with web_unroute",
        )
    times = args.get("times")
    rule = RouteRule(
        url=str(args["url"]),
        action=action,
        spec=spec,
        times=times if isinstance(times, int) else None,
    )
    await call.session.add_route(rule)
    return {"route": rule.to_json(), "routes": len(call.session.routes)}


async def web_route_list(call: CallContext, args: JsonObject) -> JsonValue:
    return {"routes": [rule.to_json() for rule in call.session.routes]}


async def web_unroute(call: CallContext, args: JsonObject) -> JsonValue:
    removed = await call.session.remove_routes(str(args["url"]))
    return {"removed": removed, "routes": len(call.session.routes)}


async def web_waitForResponse(call: CallContext, args: JsonObject) -> JsonValue:
    timeout_ms = args.get("timeout")
    timeout = (
        timeout_ms / 1000 if isinstance(timeout_ms, int | float) else call.config.action_timeout
    )
    status = args.get("status")
    url = str(args["url"])
    try:
        response = await call.session.wait_for_response(
            url, status if isinstance(status, int) else None, timeout
        )
    except TimeoutError:
        raise HostError(
            "timeout",
            f"no response matching {url!r}{f' with status {status}' if status else ''} arrived "
            f"within {timeout * 1000:g} ms",
        ) from None
    result: JsonObject = {
        "url": response.url,
        "status": response.status,
        "statusText": response.status_text,
        "headers": dict(response.headers),
    }
    try:
        body = await response.body()
    except PlaywrightError as error:
        result.update(body=None, bodyEncoding=None, bodyError=str(error.message).splitlines()[0])
        return result
    content_type = response.headers.get("content-type", "").lower()
    text: str | None = None
    if any(marker in content_type for marker in _TEXT_TYPES) or not content_type:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = None
    result["bodySize"] = len(body)
    if text is not None:
        limit = call.config.max_text_body
        result.update(body=text[:limit], bodyEncoding="text", truncated=len(text) > limit)
    else:
        limit = call.config.max_binary_body
        encoded = base64.b64encode(body[:limit]).decode("ascii")
        result.update(body=encoded, bodyEncoding="base64", truncated=len(body) > limit)
    return result


async def web_network_requests(call: CallContext, args: JsonObject) -> JsonValue:
    entries, dropped = call.session.take_network()
    return {"requests": entries, "dropped": dropped}


async def web_handle_dialog(call: CallContext, args: JsonObject) -> JsonValue:
    session = call.session
    accept = bool(args["accept"])
    text = args.get("promptText")
    prompt = str(text) if text is not None else None
    dialog = session.blocking_dialog() or (
        session.open_dialogs[0] if session.open_dialogs else None
    )
    if dialog is None:
        session.dialog_answer = (accept, prompt)
        return {"handled": None, "armed": {"accept": accept, "promptText": prompt}}
    session.open_dialogs.remove(dialog)
    described = describe_dialog(dialog)
    if accept:
        await (dialog.accept(prompt) if prompt is not None else dialog.accept())
    else:
        await dialog.dismiss()
    return {"handled": {**described, "accepted": accept}, "armed": None}


async def web_console_messages(call: CallContext, args: JsonObject) -> JsonValue:
    session = call.session
    minimum = str(args.get("level", "info"))
    messages: list[JsonValue] = [
        m for m in session.console if level_at_least(str(m.get("level")), minimum)
    ]
    dropped = session.console_dropped
    if not args.get("keep", False):
        session.console.clear()
        session.console_dropped = 0
    return {"messages": messages, "dropped": dropped}

"""The Playwright code one recorded call amounts to, in Python (sync API) or TypeScript.

Used by the exports (a whole test) and by `--codegen` (one line beside a result). A secret
(`${NAME}` in a value) becomes a read of the environment variable NAME, never its value.
"""

from __future__ import annotations

import json
import re
from typing import Any

from host.shared.descriptors import ToolDescriptor
from host.trails.locators import as_code
from host.trails.render import camel, method_call, snake
from host.trails.trail import SECRET

LANGUAGES = ("python", "typescript")


class NotExportable(Exception):
    """A call that has no Playwright equivalent (said in a comment in the export)."""


def _text(value: object, language: str) -> str:
    """A string literal, or an environment read for a whole `${NAME}` (a concatenation when the
    secret is inside a longer text)."""
    text = str(value)
    if not SECRET.search(text):
        return json.dumps(text, ensure_ascii=False)
    pieces: list[str] = []
    last = 0
    for found in SECRET.finditer(text):
        if found.start() > last:
            pieces.append(json.dumps(text[last : found.start()], ensure_ascii=False))
        name = found.group(1)
        pieces.append(f'os.environ["{name}"]' if language == "python" else f"process.env.{name}!")
        last = found.end()
    if last < len(text):
        pieces.append(json.dumps(text[last:], ensure_ascii=False))
    return " + ".join(pieces)


def _value(value: object, language: str) -> str:
    if isinstance(value, str):
        return _text(value, language)
    if isinstance(value, bool):
        return ("True" if value else "False") if language == "python" else json.dumps(value)
    if value is None:
        return "None" if language == "python" else "null"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v, language) for v in value) + "]"
    if isinstance(value, dict):
        if language == "python":
            return (
                "{"
                + ", ".join(f"{json.dumps(k)}: {_value(v, language)}" for k, v in value.items())
                + "}"
            )
        return (
            "{ "
            + ", ".join(f"{json.dumps(k)}: {_value(v, language)}" for k, v in value.items())
            + " }"
        )
    return json.dumps(value)


def _invoke(
    receiver: str, method: str, args: list[str], options: dict[str, Any], language: str
) -> str:
    call = receiver + method_call(method, args, options, language, _value)
    return call if language == "python" else f"await {call}"


_FORMER_NAMES = {
    "browser_navigate": "navigate",
    "browser_click": "click",
    "browser_type": "fill",
    "browser_hover": "hover",
    "browser_select_option": "select_option",
    "browser_drag": "drag",
    "browser_file_upload": "upload_file",
    "browser_send_keys": "send_keys",
    "browser_wait_for": "wait_for",
    "browser_tabs": "web_tabs",
    "browser_handle_dialog": "web_handle_dialog",
}
"""The tools exported below, by their listed name and the former name the code below uses (a
trail may hold either: old trails keep the former names)."""


def line_for(
    tool: str, args: dict[str, Any], language: str, descriptor: ToolDescriptor | None = None
) -> str:
    """One statement (Python sync API, or TypeScript inside an async test) for a recorded call;
    raises NotExportable when the call has no Playwright equivalent."""
    py = language == "python"
    end = "" if py else ";"
    tool = _FORMER_NAMES.get(tool, tool)

    def at(key: str) -> str:
        return as_code(str(args[key]), language)

    if tool == "navigate":
        url = args["url"]
        moves = {"back": "goBack", "forward": "goForward", "reload": "reload"}
        if url in moves:
            return _invoke("page", moves[url], [], {}, language) + end
        return _invoke("page", "goto", [_value(url, language)], {}, language) + end
    if tool == "click":
        options: dict[str, Any] = {}
        if args.get("button"):
            options["button"] = args["button"]
        if args.get("modifiers"):
            options["modifiers"] = args["modifiers"]
        return (
            _invoke(
                at("target"), "dblclick" if args.get("double") else "click", [], options, language
            )
            + end
        )
    if tool == "fill":
        line = _invoke(at("target"), "fill", [_value(args["text"], language)], {}, language) + end
        if args.get("submit"):
            line += "\n" + _invoke(at("target"), "press", ['"Enter"'], {}, language) + end
        return line
    if tool == "hover":
        return _invoke(at("target"), "hover", [], {}, language) + end
    if tool == "select_option":
        return (
            _invoke(at("target"), "selectOption", [_value(args["values"], language)], {}, language)
            + end
        )
    if tool == "drag":
        return _invoke(at("target"), "dragTo", [at("to")], {}, language) + end
    if tool == "upload_file":
        return (
            _invoke(at("target"), "setInputFiles", [_value(args["path"], language)], {}, language)
            + end
        )
    if tool == "send_keys":
        lines = []
        if args.get("target"):
            lines.append(_invoke(at("target"), "focus", [], {}, language) + end)
        for key in str(args.get("keys") or "").split():
            lines.append(
                _invoke("page.keyboard", "press", [_value(key, language)], {}, language) + end
            )
        if args.get("text"):
            lines.append(
                _invoke("page.keyboard", "type", [_value(args["text"], language)], {}, language)
                + end
            )
        return "\n".join(lines)
    if tool == "wait_for":
        if args.get("target") or args.get("text"):
            locator = (
                at("target") if args.get("target") else as_code(f'text="{args["text"]}"', language)
            )
            state = {"state": "hidden"} if args.get("gone") else {}
            first = ".first" if py else ".first()"
            return _invoke(locator + first, "waitFor", [], state, language) + end
        raise NotExportable("wait_for without a target or text")
    if tool == "web_tabs":
        action = args.get("action", "list")
        if action == "new":
            line = "page = context.new_page()" if py else "page = await context.newPage();"
            if args.get("url"):
                line += (
                    "\n"
                    + _invoke("page", "goto", [_value(args["url"], language)], {}, language)
                    + end
                )
            return line
        if action == "select":
            return (
                f"page = context.pages[{int(args['index'])}]"
                if py
                else f"page = context.pages()[{int(args['index'])}];"
            )
        if action == "close":
            pages = "context.pages" if py else "context.pages()"
            return _invoke(f"{pages}[{int(args['index'])}]", "close", [], {}, language) + end
        raise NotExportable(f"web_tabs {action}")
    if tool == "web_handle_dialog":
        accept = args.get("accept", True)
        answer = (
            (
                "dialog.accept("
                + (_value(args["promptText"], language) if args.get("promptText") else "")
                + ")"
            )
            if accept
            else "dialog.dismiss()"
        )
        if py:
            return f'page.once("dialog", lambda dialog: {answer})'
        return f'page.once("dialog", (dialog) => {answer});'
    if tool == "browser_resize":
        size = {"width": args["width"], "height": args["height"]}
        return _invoke("page", "setViewportSize", [_value(size, language)], {}, language) + end
    if tool == "browser_emulate_media":
        # Playwright's Python API spells "clear this emulation" as the string "null".
        options = {k: ("null" if py else None) if v is None else v for k, v in args.items()}
        return _invoke("page", "emulateMedia", [], options, language) + end
    if tool in ("browser_mouse_click_xy", "browser_mouse_move_xy"):
        point = [_value(args["x"], language), _value(args["y"], language)]
        if tool == "browser_mouse_move_xy":
            return _invoke("page.mouse", "move", point, {}, language) + end
        options = {"button": args["button"]} if args.get("button") else {}
        if args.get("double"):
            options["clickCount"] = 2
        return _invoke("page.mouse", "click", point, options, language) + end
    if tool == "browser_mouse_drag_xy":
        start = [_value(args["startX"], language), _value(args["startY"], language)]
        stop = [_value(args["endX"], language), _value(args["endY"], language)]
        return "\n".join(
            [
                _invoke("page.mouse", "move", start, {}, language) + end,
                _invoke("page.mouse", "down", [], {}, language) + end,
                _invoke("page.mouse", "move", stop, {"steps": 10}, language) + end,
                _invoke("page.mouse", "up", [], {}, language) + end,
            ]
        )
    if tool in _PEER_TOOLS:
        return _peer_line(tool, args, language)
    if tool == "browser_close":
        raise NotExportable("browser_close ends the session; a test ends with its own")
    if tool == "webBrowser":
        raise NotExportable("webBrowser actions (use the agent tools to record a test)")
    if descriptor is not None and descriptor.origin == "generated":
        return _generated(descriptor, args, language)
    raise NotExportable(tool)


def _generated(descriptor: ToolDescriptor, args: dict[str, Any], language: str) -> str:
    """A generated tool calls one Playwright method; its descriptor says which (`calls.python`)."""
    call = descriptor.python_call
    if not call:
        raise NotExportable(descriptor.name)
    receiver_text, _, method = call.rpartition(".")
    used: set[str] = set()

    def fill_in(found: re.Match[str]) -> str:
        used.add(found.group(1))
        value = args.get(found.group(1))
        if found.group(1) == "selector" and isinstance(value, str):
            return json.dumps(value)
        return _value(value, language)

    receiver = re.sub(r"self\.([A-Za-z_]+)", fill_in, receiver_text)
    if language != "python":
        receiver = re.sub(r"\.([a-z]+(?:_[a-z]+)+)\(", lambda m: f".{camel(m.group(1))}(", receiver)
    schema: dict[str, Any] = dict(descriptor.parameters)
    properties = [p for p in dict(schema.get("properties") or {}) if p not in used and p in args]
    required = set(schema.get("required") or [])
    if language == "python":  # every argument by keyword, in the schema's order
        return _invoke(receiver, camel(method), [], {p: args[p] for p in properties}, language)
    positional = [_value(args[p], language) for p in properties if p in required]
    options = {p: args[p] for p in properties if p not in required}
    return _invoke(receiver, camel(method), positional, options, language) + ";"


_STORAGE = {"browser_localstorage": "localStorage", "browser_sessionstorage": "sessionStorage"}
_STORAGE_METHODS = {"set": "setItem", "delete": "removeItem", "clear": "clear"}
_PEER_TOOLS = frozenset(
    {
        "browser_navigate_back",
        "browser_press_key",
        "browser_drop",
        "browser_mouse_down",
        "browser_mouse_up",
        "browser_mouse_wheel",
        "browser_verify_element_visible",
        "browser_verify_text_visible",
        "browser_verify_list_visible",
        "browser_verify_value",
        "browser_cookie_set",
        "browser_cookie_delete",
        "browser_cookie_clear",
        "browser_network_state_set",
        *(f"{prefix}_{verb}" for prefix in _STORAGE for verb in _STORAGE_METHODS),
    }
)
"""The recordable tools added as @playwright/mcp's (issue 36), exported by `_peer_line`."""


def _expect(locator: str, assertion: str, args: list[str], language: str) -> str:
    """`expect(locator).to_be_visible()` / `await expect(locator).toBeVisible();`."""
    if language == "python":
        return f"expect({locator}){method_call(assertion, args, {}, language, _value)}"
    negated = assertion.startswith("notTo")  # TypeScript spells it `.not.toBe...`
    if negated:
        assertion = "to" + assertion.removeprefix("notTo")
    call = method_call(assertion, args, {}, language, _value)
    return f"await expect({locator}){'.not' if negated else ''}{call};"


def _visible_first(locator: str, language: str) -> str:
    """The first visible element `locator` matches: what the verify tools look for."""
    if language == "python":
        return f"{locator}.filter(visible=True).first"
    return f"{locator}.filter({{ visible: true }}).first()"


def _peer_line(tool: str, args: dict[str, Any], language: str) -> str:
    py = language == "python"
    end = "" if py else ";"
    context = "page.context" if py else "page.context()"

    def at(key: str) -> str:
        return as_code(str(args[key]), language)

    if tool == "browser_navigate_back":
        return _invoke("page", "goBack", [], {}, language) + end
    if tool == "browser_press_key":
        return (
            _invoke("page.keyboard", "press", [_value(args["key"], language)], {}, language) + end
        )
    if tool == "browser_drop":
        payload: dict[str, Any] = {}
        if args.get("paths"):
            payload["files"] = args["paths"]
        if args.get("data"):
            payload["data"] = args["data"]
        return _invoke(at("target"), "drop", [_value(payload, language)], {}, language) + end
    if tool in ("browser_mouse_down", "browser_mouse_up"):
        options = {"button": args["button"]} if args.get("button") else {}
        method = "down" if tool == "browser_mouse_down" else "up"
        return _invoke("page.mouse", method, [], options, language) + end
    if tool == "browser_mouse_wheel":
        deltas = [_value(args.get(k, 0), language) for k in ("deltaX", "deltaY")]
        return _invoke("page.mouse", "wheel", deltas, {}, language) + end
    if tool == "browser_verify_element_visible":
        locator = "page" + method_call(
            "getByRole",
            [_value(args["role"], language)],
            {"name": args["accessibleName"]},
            language,
            _value,
        )
        # The tool checks the accessibility tree (as snapshots show it), where an element may
        # have no size: attached, since role locators already leave out what is hidden.
        first = f"{locator}.first" if py else f"{locator}.first()"
        return _expect(first, "toBeAttached", [], language)
    if tool == "browser_verify_text_visible":
        locator = "page" + method_call(
            "getByText", [_value(args["text"], language)], {}, language, _value
        )
        return _expect(_visible_first(locator, language), "toBeVisible", [], language)
    if tool == "browser_verify_list_visible":
        lines = []
        for item in args["items"]:
            locator = at("target") + method_call(
                "getByText", [_value(item, language)], {}, language, _value
            )
            lines.append(_expect(_visible_first(locator, language), "toBeVisible", [], language))
        return "\n".join(lines)
    if tool == "browser_verify_value":
        if args["type"] in ("checkbox", "radio"):
            checked = "toBeChecked" if args["value"] == "true" else "notToBeChecked"
            return _expect(at("target"), checked, [], language)
        return _expect(at("target"), "toHaveValue", [_value(args["value"], language)], language)
    if tool == "browser_cookie_set":
        cookie = {k: args[k] for k in ("name", "value", "domain") if k in args}
        fields = [f"{json.dumps(k)}: {_value(v, language)}" for k, v in cookie.items()]
        if "domain" not in args:  # the page's host, as the tool defaults it
            host = (
                'page.evaluate("location.hostname")'
                if py
                else ("await page.evaluate(() => location.hostname)")
            )
            fields.append(f'"domain": {host}')
        fields.append(f'"path": {_value(args.get("path") or "/", language)}')
        fields += [
            f"{json.dumps(k)}: {_value(args[k], language)}"
            for k in ("expires", "httpOnly", "secure", "sameSite")
            if k in args
        ]
        body = "{" + ", ".join(fields) + "}" if py else "{ " + ", ".join(fields) + " }"
        return _invoke(context, "addCookies", [f"[{body}]"], {}, language) + end
    if tool == "browser_cookie_delete":
        return _invoke(context, "clearCookies", [], {"name": args["name"]}, language) + end
    if tool == "browser_cookie_clear":
        return _invoke(context, "clearCookies", [], {}, language) + end
    if tool == "browser_network_state_set":
        offline = _value(args["state"] == "offline", language)
        return _invoke(context, "setOffline", [offline], {}, language) + end
    prefix, _, verb = tool.rpartition("_")
    storage = _STORAGE[prefix]
    receiver = "page." + (snake(storage) if py else storage)
    values = [_value(args[k], language) for k in ("key", "value") if k in args]
    return _invoke(receiver, _STORAGE_METHODS[verb], values, {}, language) + end

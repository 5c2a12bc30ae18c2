"""`webBrowser`: Control a browser, one action per call; each agentId has its own session.

Described by `webBrowser.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

import base64
from typing import cast

from playwright.async_api import Locator

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.calls.result_caps import MAX_RESULT_DEPTH, bounded_expression
from host.calls.results import Image
from host.sessions.session_files import unguessable
from host.sessions.session_state import clip
from host.sessions.targets import locate
from host.sessions.uploads import file_input, read_upload, sending_timeout
from host.shared.confined import Refused, create_file
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue
from host.tools.page_text import visible_text

_HTML_JS = """(root, [depth, limit]) => {
  const copy = root.cloneNode(true);
  for (const el of copy.querySelectorAll('script, style, svg, noscript')) el.remove();
  if (copy.matches && copy.matches('script, style, svg, noscript')) return '';
  const prune = (el, level) => {
    for (const child of [...el.children]) {
      if (level >= depth) child.replaceWith(el.ownerDocument.createTextNode('...'));
      else prune(child, level + 1);
    }
  };
  prune(copy, 1);
  const html = copy.outerHTML;
  return html.length > limit ? html.slice(0, limit) + `... [${html.length - limit} more characters]` : html;
}"""


HTML_LIMIT = 100_000


async def _locator(call: CallContext, selector: str) -> Locator:
    return await locate(call.tab, selector)


def _need(args: JsonObject, *names: str) -> list[str]:
    action = args["action"]
    values = []
    for name in names:
        value = args.get(name)
        if not isinstance(value, str) or not value:
            raise HostError("missing_argument", f"{action} needs {name}", path=name)
        values.append(value)
    return values


# Actions that only read the page or type: their feedback does not wait for what an action set
# off; those that navigate wait for their own document instead (the others settle, as every
# acting tool does: host/sessions/settle.py).
_READS = frozenset(
    {"get_visible_text", "get_html", "screenshot", "console_logs", "fill", "iframe_fill", "delete"}
)
_NAVIGATES = frozenset({"navigate", "go_back", "go_forward"})


async def web_browser(call: CallContext, args: JsonObject) -> JsonValue:
    action = str(args["action"])
    if action in _READS and call.session.watch is not None:
        call.session.watch.skip()
    elif action in _NAVIGATES and call.session.watch is not None:
        call.session.watch.waited()
    page = call.tab.page
    session = call.session
    result: JsonValue = None
    selector = args.get("selector")
    if action == "navigate":
        (url,) = _need(args, "url")
        await page.goto(url, wait_until=str(args.get("waitUntil", "load")))  # type: ignore[arg-type]
    elif action == "go_back":
        await page.go_back()
    elif action == "go_forward":
        await page.go_forward()
    elif action == "close":
        session.closing_intent = True  # closing the last tab ends the agent's session
        await page.close()
        if session.ended is not None:
            return {"action": action, "result": "closed the last tab; the agent's session ended"}
        return await page_feedback(session, {"action": action, "result": "closed the tab"})
    elif action in ("click", "hover"):
        (sel,) = _need(args, "selector")
        locator = await _locator(call, sel)
        await (locator.click() if action == "click" else locator.hover())
    elif action == "fill":
        sel, value = _need(args, "selector", "value")
        await (await _locator(call, sel)).fill(call.config.secrets.reveal(value))
    elif action == "select":
        sel, value = _need(args, "selector", "value")
        result = list[JsonValue](await (await _locator(call, sel)).select_option(value))
    elif action == "drag":
        sel, target = _need(args, "selector", "targetSelector")
        await (await _locator(call, sel)).drag_to(await _locator(call, target))
    elif action == "press_key":
        (key,) = _need(args, "key")
        if isinstance(selector, str) and selector:
            await (await _locator(call, selector)).press(key)
        else:
            await page.keyboard.press(key)
    elif action == "delete":
        if isinstance(selector, str) and selector:
            await (await _locator(call, selector)).fill("")
        else:
            await page.keyboard.press("ControlOrMeta+a")
            await page.keyboard.press("Delete")
    elif action == "get_visible_text":
        source = await _locator(call, selector) if isinstance(selector, str) and selector else None
        text, cut = await visible_text(source or page.locator("body"))
        result = text + ("\n[cut at 10000 characters]" if cut else "")
    elif action == "get_html":
        depth = args.get("depth", 4)
        root = await _locator(call, selector) if isinstance(selector, str) and selector else None
        html = await (root or page.locator("html")).evaluate(_HTML_JS, [depth, HTML_LIMIT])
        result = clip(str(html), HTML_LIMIT)
    elif action == "screenshot":
        data = await page.screenshot(type="png")
        storage = call.config.storage_dir
        if storage is None:
            return Image(base64.b64encode(data).decode("ascii"))
        # Confined as every file a tool writes: a new file, no symlink followed below the folder.
        try:
            path = create_file(storage, ("screenshots",), unguessable("page") + ".png", data)
        except Refused as refused:
            raise HostError("output_refused", f"the screenshot was not saved: {refused}") from None
        result = str(path)
    elif action == "evaluate":
        (value,) = _need(args, "value")
        bounded = bounded_expression(value, call.config.max_result_bytes, MAX_RESULT_DEPTH)
        result = cast(JsonValue, await page.evaluate(bounded))
    elif action == "console_logs":
        result = [f"[{m.get('type')}] {m.get('text')}" for m in session.console]
        session.console.clear()
        session.console_dropped = 0
        session.take_new_errors()
        session.take_new_console()
    elif action in ("iframe_click", "iframe_fill"):
        frame, sel = _need(args, "frameSelector", "selector")
        inner = page.frame_locator(frame).locator(sel)
        if action == "iframe_click":
            await inner.click()
        else:
            (value,) = _need(args, "value")
            await inner.fill(call.config.secrets.reveal(value))
    elif action == "upload_file":
        sel, file_path = _need(args, "selector", "filePath")
        try:
            upload = read_upload(call.config, file_path, call.config.max_upload_bytes)
        except HostError as error:  # name this tool's own argument
            error.path = "filePath"
            raise
        field = await file_input(await _locator(call, sel))
        await field.set_input_files(
            upload.payload(), timeout=sending_timeout(call.config, [upload])
        )
        result = f"uploaded {upload.name}"
    elif action == "click_and_switch_tab":
        (sel,) = _need(args, "selector")
        locator = await _locator(call, sel)
        async with session.context.expect_page() as opened:
            await locator.click()
        new_page = await opened.value
        session._adopt(new_page)
        index = session.index_of(new_page)
        assert index is not None
        session.current = session.tabs[index]
        session.take_notes()
        await new_page.wait_for_load_state("domcontentloaded")
    return await page_feedback(session, {"action": action, "result": result})

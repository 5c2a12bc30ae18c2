"""The agent toolset's own tools (`web_agent`): snapshot with refs, actions answered with page
feedback, keys, screenshots as images, uploads behind an allow-list, dropdown options.

Each function is named by a `.tool.yaml` in `host/tools/` (`calls.python`); its arguments were
validated against that schema before it runs. Every `target` is resolved by `host.targets`.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import cast

from playwright.async_api import Locator

from host.config import HostConfig
from host.errors import HostError
from host.feedback import page_feedback
from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.result_caps import MAX_RESULT_DEPTH, bounded_expression
from host.results import Image, Rendered
from host.targets import locate, record_refs

TEXT_LIMIT = 10_000
MAX_OPTIONS = 200

# -- reading -------------------------------------------------------------------------------


async def web_snapshot(call: CallContext, args: JsonObject) -> JsonValue:
    tab = call.tab
    depth = args.get("depth")
    kwargs: dict[str, object] = {"mode": "ai", "timeout": call.config.action_timeout * 1000}
    if isinstance(depth, int):
        kwargs["depth"] = depth
    target = args.get("target")
    if isinstance(target, str):
        locator = await locate(tab, target)
        snapshot = await locator.aria_snapshot(**kwargs)  # type: ignore[arg-type]
    else:
        snapshot = await tab.page.aria_snapshot(**kwargs)  # type: ignore[arg-type]
    limit = call.config.snapshot_limit
    value: JsonObject = {}
    if len(snapshot) > limit:
        cut = snapshot.rfind("\n", 0, limit)
        snapshot = snapshot[: cut if cut > 0 else limit]
        value["truncated"] = (
            f"the snapshot was cut at {limit} characters; pass a target (a ref or selector of a "
            "part) or a depth to see the rest"
        )
    record_refs(tab, snapshot)
    feedback = await page_feedback(call.session)
    value = {**feedback, **value, "snapshot": snapshot}
    note = f"\n[{value['truncated']}]" if "truncated" in value else ""
    return Rendered(value, f"{feedback.text}\nsnapshot:\n{snapshot}{note}")


def cut_text(text: str, limit: int = TEXT_LIMIT) -> tuple[str, bool]:
    return (text, False) if len(text) <= limit else (text[:limit], True)


# The text is cut in the page: only what is returned crosses to the host.
_TEXT_JS = "(e, limit) => { const t = e.innerText || ''; return [t.slice(0, limit), t.length] }"


async def visible_text(locator: Locator, limit: int = TEXT_LIMIT) -> tuple[str, bool]:
    """An element's visible text, at most `limit` characters, and whether it was cut."""
    found = await locator.evaluate(_TEXT_JS, limit)
    text, length = found if isinstance(found, list) and len(found) == 2 else ["", 0]
    return str(text), isinstance(length, int) and length > limit


async def get_text(call: CallContext, args: JsonObject) -> JsonValue:
    target = args.get("target")
    if isinstance(target, str):
        source = await locate(call.tab, target)
    else:
        source = call.tab.page.locator("body")
    text, cut = await visible_text(source)
    note = f"\n[cut at {TEXT_LIMIT} characters; pass a target for a part]" if cut else ""
    return Rendered({"text": text, "truncated": cut}, text + note)


async def evaluate(call: CallContext, args: JsonObject) -> JsonValue:
    expression = bounded_expression(
        str(args["expression"]), call.config.max_result_bytes, MAX_RESULT_DEPTH
    )
    target = args.get("target")
    if isinstance(target, str):
        result = await (await locate(call.tab, target)).evaluate(expression)
    else:
        result = await call.tab.page.evaluate(expression)
    return cast(JsonValue, result)


# -- acting --------------------------------------------------------------------------------


async def _target(call: CallContext, args: JsonObject, name: str = "target") -> Locator:
    return await locate(call.tab, str(args[name]))


async def navigate(call: CallContext, args: JsonObject) -> JsonValue:
    url = str(args["url"])
    page = call.tab.page
    wait = str(args.get("waitUntil", "load"))
    if url == "back":
        await page.go_back(wait_until=wait)  # type: ignore[arg-type]
    elif url == "forward":
        await page.go_forward(wait_until=wait)  # type: ignore[arg-type]
    elif url == "reload":
        await page.reload(wait_until=wait)  # type: ignore[arg-type]
    else:
        response = await page.goto(url, wait_until=wait)  # type: ignore[arg-type]
        if response is not None and response.status >= 400:
            return await page_feedback(call.session, {"status": response.status})
    return await page_feedback(call.session)


async def click(call: CallContext, args: JsonObject) -> JsonValue:
    locator = await _target(call, args)
    modifiers = cast(list[str], args.get("modifiers") or [])
    button = str(args.get("button", "left"))
    if args.get("double"):
        await locator.dblclick(button=button, modifiers=modifiers)  # type: ignore[arg-type]
    elif await locator.evaluate(_OPENS_TAB):
        # A link into a new tab: report the tab in this result, not one call later.
        async with call.session.context.expect_page() as opened:
            await locator.click(button=button, modifiers=modifiers)  # type: ignore[arg-type]
        call.session._adopt(await opened.value)
    else:
        await locator.click(button=button, modifiers=modifiers)  # type: ignore[arg-type]
    return await page_feedback(call.session)


_OPENS_TAB = """e => { const a = e.closest('a[href]');
  return !!a && !!a.target && !['_self', '_parent', '_top'].includes(a.target) }"""


async def fill(call: CallContext, args: JsonObject) -> JsonValue:
    locator = await _target(call, args)
    await locator.fill(str(args["text"]))
    if args.get("submit"):
        await locator.press("Enter")
    return await page_feedback(call.session)


async def hover(call: CallContext, args: JsonObject) -> JsonValue:
    await (await _target(call, args)).hover()
    return await page_feedback(call.session)


async def drag(call: CallContext, args: JsonObject) -> JsonValue:
    source = await _target(call, args)
    await source.drag_to(await _target(call, args, "to"))
    return await page_feedback(call.session)


async def select_option(call: CallContext, args: JsonObject) -> JsonValue:
    locator = await _target(call, args)
    values = cast(list[str], args["values"])
    chosen = await locator.select_option(values)
    return await page_feedback(call.session, {"selected": list[JsonValue](chosen)})


async def send_keys(call: CallContext, args: JsonObject) -> JsonValue:
    page = call.tab.page
    target = args.get("target")
    if isinstance(target, str):
        await (await locate(call.tab, target)).focus()
    keys = str(args.get("keys", "")).split()
    text = args.get("text")
    if not keys and not isinstance(text, str):
        raise HostError("missing_argument", "give keys, text or both", path="keys")
    for key in keys:
        await page.keyboard.press(key)
    if isinstance(text, str):
        await page.keyboard.type(text)
    return await page_feedback(call.session)


async def wait_for(call: CallContext, args: JsonObject) -> JsonValue:
    page = call.tab.page
    timeout_ms = args.get("timeout")
    timeout = float(timeout_ms) if isinstance(timeout_ms, int | float) else 5000.0
    timeout = min(timeout, call.config.navigation_timeout * 1000)
    if isinstance(args.get("text"), str):
        await page.get_by_text(str(args["text"])).first.wait_for(state="visible", timeout=timeout)
    if isinstance(args.get("gone"), str):
        await page.get_by_text(str(args["gone"])).first.wait_for(state="hidden", timeout=timeout)
    if isinstance(args.get("target"), str):
        await (await _target(call, args)).first.wait_for(state="visible", timeout=timeout)
    return await page_feedback(call.session)


async def screenshot(call: CallContext, args: JsonObject) -> JsonValue:
    target = args.get("target")
    if isinstance(target, str):
        data = await (await locate(call.tab, target)).screenshot(type="png")
    else:
        data = await call.tab.page.screenshot(type="png", full_page=bool(args.get("fullPage")))
    return Image(base64.b64encode(data).decode("ascii"))


# -- files ---------------------------------------------------------------------------------


def check_upload(config: HostConfig, raw: str) -> Path:
    """The file `raw` names, if the host's upload rules allow it; else a HostError naming the rule.

    Rules, in order: uploads are on (`--upload-dir`); the path, with symlinks and `..` resolved,
    lies inside an allowed directory (also resolved); it exists; it is a regular file; it is not
    empty. A relative path is taken relative to the first allowed directory.
    """
    if not config.upload_dirs:
        raise HostError(
            "upload_disabled",
            "rule 'uploads are off': this host was started without --upload-dir, so no file can "
            "be uploaded",
            path="path",
        )
    given = Path(raw).expanduser()
    if not given.is_absolute():
        given = config.upload_dirs[0] / given
    real = Path(os.path.realpath(given))
    allowed = [Path(os.path.realpath(d)) for d in config.upload_dirs]
    if not any(real == d or d in real.parents for d in allowed):
        raise HostError(
            "upload_not_allowed",
            f"rule 'inside an allowed directory': {raw} resolves to {real}, which is outside the "
            f"allowed directories ({', '.join(str(d) for d in allowed)})",
            path="path",
        )
    if not real.exists():
        raise HostError(
            "upload_not_found", f"rule 'must exist': {real} does not exist", path="path"
        )
    if not real.is_file():
        raise HostError(
            "upload_not_a_file",
            f"rule 'regular file': {real} is not a regular file",
            path="path",
        )
    if real.stat().st_size == 0:
        raise HostError("upload_empty", f"rule 'not empty': {real} is empty (0 bytes)", path="path")
    return real


async def file_input(locator: Locator) -> Locator:
    """`locator` if it is an `<input type=file>`, else the nearest one: inside it, then inside
    its closest ancestor that holds one."""
    if await locator.evaluate("e => e instanceof HTMLInputElement && e.type === 'file'"):
        return locator
    inside = locator.locator("input[type=file]")
    if await inside.count() > 0:
        return inside.first
    around = locator.locator("xpath=ancestor::*[.//input[@type='file']][1]").locator(
        "input[type=file]"
    )
    if await around.count() > 0:
        return around.first
    raise HostError(
        "no_file_input",
        "the target is not a file input and none is inside it or near it",
        path="target",
    )


async def upload_file(call: CallContext, args: JsonObject) -> JsonValue:
    path = check_upload(call.config, str(args["path"]))
    target = await file_input(await _target(call, args))
    await target.set_input_files(str(path))
    return await page_feedback(call.session, {"uploaded": path.name, "bytes": path.stat().st_size})


# -- dropdowns -----------------------------------------------------------------------------

_OPTIONS_JS = """(el, max) => {
  const text = e => (e.innerText || e.textContent || '').trim().replace(/\\s+/g, ' ');
  if (el instanceof HTMLSelectElement) {
    const all = [...el.options];
    return {kind: 'select', multiple: el.multiple, count: all.length,
      options: all.slice(0, max).map(o => ({text: o.label || text(o), value: o.value,
        selected: o.selected, disabled: o.disabled}))};
  }
  const role = el.getAttribute('role') || '';
  const popups = [];
  for (const attr of ['aria-controls', 'aria-owns']) {
    for (const id of (el.getAttribute(attr) || '').split(/\\s+/)) {
      const popup = id && el.ownerDocument.getElementById(id);
      if (popup) popups.push(popup);
    }
  }
  popups.push(el);
  const selector = '[role=option],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio]';
  const found = [];
  for (const popup of popups)
    for (const option of popup.querySelectorAll(selector))
      if (!found.includes(option)) found.push(option);
  const quote = s => JSON.stringify(s);
  return {kind: role || el.tagName.toLowerCase(), count: found.length,
    options: found.slice(0, max).map(o => {
      const name = text(o);
      const r = o.getAttribute('role');
      return {text: name, value: o.getAttribute('data-value') ?? o.getAttribute('value') ?? null,
        selected: o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true',
        disabled: o.getAttribute('aria-disabled') === 'true' || o.hasAttribute('disabled'),
        target: o.id ? '#' + CSS.escape(o.id) : `role=${r}[name=${quote(name)}s]`};
    })};
}"""


async def dropdown_options(call: CallContext, args: JsonObject) -> JsonValue:
    locator = await _target(call, args)
    found = cast(JsonObject, await locator.evaluate(_OPTIONS_JS, MAX_OPTIONS))
    count = found.pop("count")
    found["truncated"] = isinstance(count, int) and count > MAX_OPTIONS
    if found["kind"] != "select" and not found["options"]:
        found["hint"] = (
            "no option or menuitem elements found: open the dropdown (click it) first, then ask "
            "again"
        )
    return found
